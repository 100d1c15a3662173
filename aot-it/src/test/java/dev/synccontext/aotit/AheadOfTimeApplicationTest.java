package dev.synccontext.aotit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.testing.Browser;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The application of this module as AOT processing left it at build time ({@code process-aot}, bound before
 * the tests), run as a child JVM with {@code -Dspring.aot.enabled=true} on a free port and driven over real
 * HTTP. Proves that the model holds in AOT mode and that the run time defines no proxy class: the JVM logs
 * where every class comes from ({@code -Xlog:class+load}), and a class defined at run time has no file as its
 * source. Run with {@code mvn -pl aot-it -am verify} (or {@code test}): process-aot must have run in the same
 * build.
 */
@Tag("process") // builds nothing itself, but starts the AOT-processed application in a child JVM
class AheadOfTimeApplicationTest {

    private static final Pattern PORT = Pattern.compile("started on port (\\d+)");
    /** {@code [0.321s][info][class,load] a.B$$SpringCGLIB$$0 source: file:/...}. */
    private static final Pattern LOADED = Pattern.compile("\\[class,load\\] (\\S+) source: (.*)$");

    private static Process app;
    private static Path classLog;
    private static final ConcurrentLinkedQueue<String> output = new ConcurrentLinkedQueue<>();
    private static int port;

    @BeforeAll
    static void startProcessedApplication() throws Exception {
        Path target = Path.of("target");
        classLog = target.resolve("aot-it-class-load.log").toAbsolutePath();
        Files.deleteIfExists(classLog);
        String classpath = Arrays.stream(System.getProperty("surefire.test.class.path",
                        System.getProperty("java.class.path")).split(File.pathSeparator))
                .filter(entry -> !entry.endsWith("test-classes"))
                .collect(Collectors.joining(File.pathSeparator));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        app = new ProcessBuilder(java, "-Dspring.aot.enabled=true", "-Xlog:class+load=info:file=" + classLog,
                "-cp", classpath, AotApplication.class.getName(), "--server.port=0")
                .redirectErrorStream(true).start();
        CompletableFuture<Integer> started = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(
                    new InputStreamReader(app.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = lines.readLine()) != null;) {
                    output.add(line);
                    Matcher matcher = PORT.matcher(line);
                    if (matcher.find()) {
                        started.complete(Integer.parseInt(matcher.group(1)));
                    }
                }
            } catch (IOException ignored) {
                // the process ended
            }
            started.completeExceptionally(new IllegalStateException("The application ended before it started: "
                    + String.join("\n", output)));
        }, "aot-it-output");
        reader.setDaemon(true);
        reader.start();
        port = started.get(120, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stopApplication() throws Exception {
        if (app == null) {
            return;
        }
        List<ProcessHandle> children = app.descendants().toList();
        app.destroy();
        if (!app.waitFor(30, TimeUnit.SECONDS)) {
            app.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        assertThat(app.isAlive()).as("the application process after stop").isFalse();
        assertThat(children).as("processes the application started").noneMatch(ProcessHandle::isAlive);
    }

    @Test
    void startsFromTheAheadOfTimeInitializer() {
        assertThat(output).as("the application's log").anyMatch(line -> line.contains("Starting AOT-processed"));
    }

    @Test
    void concurrentIncrementsOfOneSessionAreAllCountedOnceAndSessionsStayApart() {
        Browser first = new Browser(port);
        Browser second = new Browser(port);
        assertThat(first.get("/tally").body()).isEqualTo("0");
        assertThat(second.get("/tally").body()).isEqualTo("0");

        List<CompletableFuture<HttpResponse<String>>> firsts = increments(first, 200);
        List<CompletableFuture<HttpResponse<String>>> seconds = increments(second, 50);

        assertThat(answers(firsts)).as("what each of the first session's 200 increments saw")
                .containsExactlyInAnyOrderElementsOf(IntStream.rangeClosed(1, 200).boxed().toList());
        assertThat(answers(seconds)).as("what each of the second session's 50 increments saw")
                .containsExactlyInAnyOrderElementsOf(IntStream.rangeClosed(1, 50).boxed().toList());
        assertThat(first.get("/tally").body()).as("the first session's count").isEqualTo("200");
        assertThat(second.get("/tally").body()).as("the second session's count").isEqualTo("50");
        assertThat(new Browser(port).get("/tally").body()).as("a new session's count").isEqualTo("0");
    }

    @Test
    void noProxyClassIsDefinedAtRunTime() throws IOException {
        Browser browser = new Browser(port);
        String proxyClass = browser.get("/tally/proxy-class").body();
        assertThat(proxyClass).as("the class of the injected @ContextScoped proxy")
                .startsWith(Tally.class.getName() + "$$SyncContextScope$$");
        assertThat(browser.post("/tally/increment").body()).isEqualTo("1");

        // Everything the JVM has loaded so far: the proxy above was loaded before it answered.
        Map<String, String> sources = new HashMap<>();
        for (String line : Files.readAllLines(classLog, StandardCharsets.UTF_8)) {
            Matcher matcher = LOADED.matcher(line);
            if (matcher.find()) {
                sources.put(matcher.group(1), matcher.group(2));
            }
        }
        assertThat(sources.get(proxyClass)).as("where the @ContextScoped proxy class was loaded from")
                .isNotNull().startsWith("file:");
        List<String> defined = new ArrayList<>();
        sources.forEach((name, source) -> {
            // CGLIB's classes ($$SpringCGLIB$$, $$SyncContextScope$$) are ordinary named classes; a hidden class
            // (a lambda, the JDK's $$InjectedInvoker, named "…/0x…") is the JDK's own and never CGLIB's.
            boolean generated = name.contains("$$") && !name.contains("/");
            if (generated && !source.startsWith("file:") && !source.startsWith("jar:")) {
                defined.add(name + " (" + source + ")");
            }
        });
        assertThat(defined).as("generated classes defined at run time instead of loaded from the AOT output")
                .isEmpty();
    }

    private static List<CompletableFuture<HttpResponse<String>>> increments(Browser browser, int count) {
        List<CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            sent.add(browser.httpClient().sendAsync(
                    browser.request("/tally/increment").POST(HttpRequest.BodyPublishers.noBody()).build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        return sent;
    }

    private static List<Integer> answers(List<CompletableFuture<HttpResponse<String>>> sent) {
        return sent.stream().map(CompletableFuture::join).map(response -> {
            assertThat(response.statusCode()).as("status of an increment: %s", response.body()).isEqualTo(200);
            return Integer.parseInt(response.body());
        }).toList();
    }
}
