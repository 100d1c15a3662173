package dev.synccontext.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WindowType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The page in a real browser: Debian's headless Chromium driven through Debian's chromedriver (the
 * local binaries, never a download). Two tabs of one session and a tab of another session; fast clicks
 * in both tabs of the first must converge on the same total there and leave the other at zero. Ending
 * the session shows every tab a clear "ended" state, from which a new session starts. The same holds over
 * the WebSocket live channel. Each browser's console is read at the end: the page logged no error.
 *
 * <p>Without the browser this test fails (it never skips) and says how to install it.
 */
@SampleServerTest
@Tag("system")
class BoardBrowserTest {

    static final Path CHROMIUM = Path.of(System.getProperty("sample.chromium", "/usr/bin/chromium"));
    static final Path CHROMEDRIVER = Path.of(System.getProperty("sample.chromedriver", "/usr/bin/chromedriver"));
    static final int CLICKS_PER_TAB = 100;
    static final int BURST = 10;
    static final Duration WAIT = Duration.ofSeconds(30);
    static final Path SCREENSHOTS = Path.of("target");

    @LocalServerPort
    int port;

    @TempDir
    Path profiles;

    @BeforeAll
    static void requireLocalBrowser() {
        for (Path binary : List.of(CHROMIUM, CHROMEDRIVER)) {
            if (!Files.isExecutable(binary)) {
                fail(binary + " is missing, so the browser test cannot run. Install Debian's Chromium and its driver:"
                        + " `apt-get install -y chromium chromium-driver` (as root; `bash test.sh` does this itself)."
                        + " Other locations: -Dsample.chromium=... -Dsample.chromedriver=...");
            }
        }
        // Selenium must use the local driver; it would otherwise ask Selenium Manager to find (download) one.
        System.setProperty(ChromeDriverService.CHROME_DRIVER_EXE_PROPERTY, CHROMEDRIVER.toString());
    }

    @Test
    void twoTabsOfOneSessionConvergeAndAnotherSessionStaysAtZero() throws IOException {
        inTwoBrowsers("http://127.0.0.1:" + port + "/", "", (alice, bob, tabs, aliceSession) -> {
            clickInEachTabUntilTheyConverge(alice, tabs);

            String bobClock = text(bob, "clock");
            waitFor(bob).until(driver -> !text(driver, "clock").equals(bobClock)); // still live, ticking
            assertThat(text(bob, "counter")).as("the other session's counter").isEqualTo("0");

            alice.switchTo().window(tabs.get(0));
            fillForScreenshot(alice);
            alice.switchTo().window(tabs.get(1));
            waitFor(alice).until(ExpectedConditions.textToBePresentInElementLocated(By.id("quote"), "ACME"));
            assertThat(alice.findElements(By.cssSelector("#items li"))).as("items reached the other tab").hasSize(3);
            alice.switchTo().window(tabs.get(0));
            saveScreenshot(alice, "board-screenshot.png");
            saveScreenshot(bob, "board-other-session.png");

            alice.findElement(By.id("end-session")).click();
            for (String tab : tabs) {
                alice.switchTo().window(tab);
                waitFor(alice).until(ExpectedConditions.attributeToBe(By.id("status"), "data-state", "ended"));
                assertThat(alice.findElement(By.id("ended")).isDisplayed()).as("the ended banner").isTrue();
                assertThat(text(alice, "ended-reason")).as("the ended event's reason")
                        .contains("ended from one of its tabs");
            }
            saveScreenshot(alice, "board-session-ended.png");
            alice.findElement(By.id("restart")).click();
            awaitLive(alice);
            waitFor(alice).until(ExpectedConditions.textToBe(By.id("counter"), "0"));
            assertThat(text(alice, "session-name")).as("a new session").isNotEqualTo(aliceSession);
            assertThat(text(bob, "counter")).as("the other session is unaffected").isEqualTo("0");
            assertCleanConsole(alice, "alice (SSE)");
            assertCleanConsole(bob, "bob (SSE)");
        });
    }

    /**
     * The same convergence over the WebSocket live channel ({@code ?live=websocket}): board updates arrive
     * over the socket and counter clicks leave over it, each handled on the session's context in turn with
     * what comes over HTTP (an item added by a form post reaches the other tab over its socket).
     */
    @Test
    void twoTabsOfOneSessionConvergeOverTheWebSocketChannel() throws IOException {
        inTwoBrowsers("http://127.0.0.1:" + port + "/?live=websocket", "-ws", (alice, bob, tabs, aliceSession) -> {
            assertThat(text(alice, "status")).as("the tab's live channel").contains("WebSocket");

            clickInEachTabUntilTheyConverge(alice, tabs);

            alice.switchTo().window(tabs.get(0));
            alice.findElement(By.id("item-text")).sendKeys("Posted over HTTP, seen over the socket");
            alice.findElement(By.cssSelector("#item-form button")).click();
            alice.switchTo().window(tabs.get(1));
            waitFor(alice).until(ExpectedConditions.textToBePresentInElementLocated(By.id("items"),
                    "Posted over HTTP, seen over the socket"));
            String bobClock = text(bob, "clock");
            waitFor(bob).until(driver -> !text(driver, "clock").equals(bobClock)); // ticks arrive over the socket
            assertThat(text(bob, "counter")).as("the other session's counter").isEqualTo("0");
            saveScreenshot(alice, "board-websocket.png");

            alice.findElement(By.id("end-session")).click();
            for (String tab : tabs) {
                alice.switchTo().window(tab);
                waitFor(alice).until(ExpectedConditions.attributeToBe(By.id("status"), "data-state", "ended"));
                assertThat(text(alice, "ended-reason")).as("the ended message's reason, from the socket")
                        .contains("ended from one of its tabs");
            }
            assertThat(text(bob, "counter")).as("the other session is unaffected").isEqualTo("0");
            assertCleanConsole(alice, "alice (WebSocket)");
            assertCleanConsole(bob, "bob (WebSocket)");
        });
    }

    /** What a test does with Alice's two live tabs of one session and Bob's tab of another. */
    @FunctionalInterface
    private interface TwoBrowsers {
        void run(ChromeDriver alice, ChromeDriver bob, List<String> tabs, String aliceSession) throws IOException;
    }

    /**
     * Opens {@code page} in two tabs of Alice's browser and in one of Bob's (profiles named with {@code suffix}),
     * checks that Alice's tabs show one session and Bob's another, runs {@code scenario} with Alice on her first
     * tab, and quits both browsers whatever happens.
     */
    private void inTwoBrowsers(String page, String suffix, TwoBrowsers scenario) throws IOException {
        ChromeDriver alice = chrome(profiles.resolve("alice" + suffix));
        try {
            ChromeDriver bob = chrome(profiles.resolve("bob" + suffix));
            try {
                List<String> tabs = openLiveTabs(alice, page, 2);
                openLiveTabs(bob, page, 1);

                String aliceSession = text(alice, "session-name");
                alice.switchTo().window(tabs.get(0));
                assertThat(text(alice, "session-name")).as("both tabs show one session").isEqualTo(aliceSession);
                assertThat(text(bob, "session-name")).as("another browser is another session")
                        .isNotEqualTo(aliceSession);
                waitFor(alice).until(ExpectedConditions.textToBe(By.id("stat-tabs"), "2"));
                scenario.run(alice, bob, tabs, aliceSession);
            } finally {
                bob.quit();
            }
        } finally {
            alice.quit();
        }
    }

    private static void fillForScreenshot(WebDriver driver) {
        for (String item : List.of("Ship the sample app", "Check the Grafana dashboard", "Write the release notes")) {
            driver.findElement(By.id("item-text")).sendKeys(item);
            driver.findElement(By.cssSelector("#item-form button")).click();
            waitFor(driver).until(ExpectedConditions.textToBePresentInElementLocated(By.id("items"), item));
        }
        driver.findElement(By.cssSelector("#items li:first-child input[type=checkbox]")).click();
        waitFor(driver).until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#items li.done")));
        driver.findElement(By.id("symbol")).sendKeys("acme");
        driver.findElement(By.id("load-quote")).click();
        waitFor(driver).until(ExpectedConditions.textToBePresentInElementLocated(By.id("quote"), "answered in"));
    }

    /**
     * Prints what the page logged to the browser's console and fails on any error (a script exception, a
     * failed request, an EventSource or WebSocket failure). A line the test logs itself first proves that the
     * console is really read.
     */
    private static void assertCleanConsole(ChromeDriver driver, String who) {
        String probe = "console check by BoardBrowserTest";
        driver.executeScript("console.info(arguments[0])", probe);
        List<LogEntry> entries = driver.manage().logs().get(LogType.BROWSER).getAll();
        entries.forEach(entry -> System.out.printf("console %s: %s %s%n", who, entry.getLevel(), entry.getMessage()));
        assertThat(entries).as("%s's console is read", who).anyMatch(entry -> entry.getMessage().contains(probe));
        assertThat(entries).as("errors on %s's console", who)
                .noneMatch(entry -> entry.getLevel().intValue() >= Level.SEVERE.intValue());
    }

    private static ChromeDriver chrome(Path profile) {
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        ChromeOptions options = new ChromeOptions()
                .setBinary(CHROMIUM.toFile())
                .addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                        "--disable-quic", "--no-first-run", "--disable-background-networking",
                        "--disable-component-update", "--disable-sync", "--window-size=1280,1000",
                        "--user-data-dir=" + profile.toAbsolutePath());
        LoggingPreferences console = new LoggingPreferences();
        console.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", console);
        return new ChromeDriver(service, options);
    }

    /** Opens the page in {@code count} tabs of one browser, each live before the next opens; their handles. */
    private static List<String> openLiveTabs(WebDriver driver, String page, int count) {
        List<String> tabs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            if (i > 0) {
                driver.switchTo().newWindow(WindowType.TAB);
            }
            driver.get(page);
            tabs.add(driver.getWindowHandle());
            awaitLive(driver);
        }
        return tabs;
    }

    /** Clicks increment {@link #CLICKS_PER_TAB} times in each tab, a burst per tab in turn; awaits the sum in each. */
    private static void clickInEachTabUntilTheyConverge(WebDriver driver, List<String> tabs) {
        for (int round = 0; round < CLICKS_PER_TAB / BURST; round++) {
            for (String tab : tabs) {
                driver.switchTo().window(tab);
                // One actions command per burst: the same trusted clicks as one click command each, a tenth of
                // the driver round trips (each click command took ~120 ms, most of this test's time).
                Actions burst = new Actions(driver).moveToElement(driver.findElement(By.id("increment")));
                for (int i = 0; i < BURST; i++) {
                    burst.click();
                }
                burst.perform();
            }
        }
        String total = Integer.toString(tabs.size() * CLICKS_PER_TAB);
        for (String tab : tabs) {
            driver.switchTo().window(tab);
            waitFor(driver).until(ExpectedConditions.textToBe(By.id("counter"), total));
        }
    }

    private static void awaitLive(WebDriver driver) {
        waitFor(driver).until(ExpectedConditions.attributeToBe(By.id("status"), "data-state", "live"));
    }

    private static WebDriverWait waitFor(WebDriver driver) {
        return new WebDriverWait(driver, WAIT, Duration.ofMillis(50));
    }

    private static String text(WebDriver driver, String id) {
        return driver.findElement(By.id(id)).getText();
    }

    private static void saveScreenshot(ChromeDriver driver, String name) throws IOException {
        Files.createDirectories(SCREENSHOTS);
        Path shot = driver.getScreenshotAs(OutputType.FILE).toPath();
        Files.copy(shot, SCREENSHOTS.resolve(name), StandardCopyOption.REPLACE_EXISTING);
    }
}
