package dev.synccontext.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * {@code grafana/alerts.yml} is a valid Prometheus rule file ({@code promtool check rules}) and each of its
 * alerts fires on the series it is for and stays silent on the others ({@code promtool test rules
 * grafana/alerts.test.yml}, which must test every alert the file has). Debian's {@code promtool}, from the
 * prometheus package; {@code PROMTOOL_BIN} to use another. That a live Prometheus fires each rule for a real
 * fault of the sample is {@link GrafanaDashboardTest}'s part; this test is where the committed {@code for: 5m} of
 * the sustained queue depth is shown, which that one shortens.
 */
@Tag("process")
class AlertRulesTest {

    private static final Path ALERTS = Path.of("grafana", "alerts.yml");
    private static final Path ALERT_TESTS = Path.of("grafana", "alerts.test.yml");

    @Test
    void promtoolChecksTheRuleFile() throws Exception {
        Path alerts = GrafanaDashboard.repositoryFile(ALERTS);
        String output = promtool(alerts.getParent(), "check", "rules", alerts.getFileName().toString());
        assertThat(output).contains("SUCCESS: " + GrafanaDashboardTest.alertNames().size() + " rules found");
    }

    @Test
    void promtoolUnitTestsFireEachAlertOnItsSeriesOnly() throws Exception {
        Path tests = GrafanaDashboard.repositoryFile(ALERT_TESTS);
        String output = promtool(tests.getParent(), "test", "rules", tests.getFileName().toString());
        assertThat(output).contains("SUCCESS");
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyAlertHasAUnitTestInWhichItFires() throws IOException {
        Map<String, Object> file = new Yaml().load(Files.readString(GrafanaDashboard.repositoryFile(ALERT_TESTS)));
        Set<String> fired = new TreeSet<>();
        Set<String> silent = new TreeSet<>();
        for (Map<String, Object> test : (List<Map<String, Object>>) file.get("tests")) {
            for (Map<String, Object> check : (List<Map<String, Object>>) test.get("alert_rule_test")) {
                String name = (String) check.get("alertname");
                (((List<?>) check.get("exp_alerts")).isEmpty() ? silent : fired).add(name);
            }
        }
        Set<String> alerts = GrafanaDashboardTest.alertNames();
        assertThat(fired).as("alerts shown firing in %s", ALERT_TESTS).containsExactlyInAnyOrderElementsOf(alerts);
        assertThat(silent).as("alerts shown silent in %s", ALERT_TESTS).containsExactlyInAnyOrderElementsOf(alerts);
    }

    /** Runs promtool in {@code dir}; fails with its output unless it exits 0 within 60 s. */
    private static String promtool(Path dir, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(binary().toString());
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        try {
            boolean exited = process.waitFor(60, TimeUnit.SECONDS);
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(exited).as("promtool %s exited within 60 s", command).isTrue();
            assertThat(process.exitValue()).as("promtool %s:%n%s", command, output).isZero();
            return output;
        } finally {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            assertThat(process.isAlive()).as("promtool is gone").isFalse();
        }
    }

    private static Path binary() {
        String configured = System.getenv("PROMTOOL_BIN");
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        for (String dir : (System.getenv().getOrDefault("PATH", "") + ":/usr/bin").split(":")) {
            if (!dir.isBlank() && Files.isExecutable(Path.of(dir, "promtool"))) {
                return Path.of(dir, "promtool");
            }
        }
        throw new AssertionError("No promtool on the PATH. " + PrometheusProcess.INSTALL_HINT
                + " (promtool comes with it; PROMTOOL_BIN to use another).");
    }
}
