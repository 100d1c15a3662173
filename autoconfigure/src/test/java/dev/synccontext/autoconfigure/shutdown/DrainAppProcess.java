package dev.synccontext.autoconfigure.shutdown;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.testing.ChildJvm;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A drain test application ({@link DrainApp}, {@link FluxDrainApp}) as its own JVM on the test's class path: starting
 * it, reading the lines it prints, and making sure it is gone afterwards.
 */
final class DrainAppProcess {

    private DrainAppProcess() {
    }

    /** Starts {@code main} with 512 MB of heap and the serial collector, its error output merged into its output. */
    static Process start(Class<?> main, List<String> arguments) throws IOException {
        List<String> args = new ArrayList<>(List.of("-Xmx512m", "-XX:+UseSerialGC", main.getName()));
        args.addAll(arguments);
        return ChildJvm.start(args.toArray(String[]::new));
    }

    /** A daemon thread that adds each line the app prints to {@code out} until the app's output ends. */
    static Thread pump(Process app, List<String> out) {
        Thread pump = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(app.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = lines.readLine()) != null; ) {
                    out.add(line);
                }
            } catch (IOException ended) {
                // the process is gone
            }
        }, "drain-app-output");
        pump.setDaemon(true);
        pump.start();
        return pump;
    }

    /** The port the app printed once it started; fails with its output if it died first. */
    static int port(Process app, List<String> out) {
        await().atMost(Duration.ofSeconds(90)).until(() -> indexOf(out, DrainApp.OUT + "port=") >= 0 || !app.isAlive());
        int at = indexOf(out, DrainApp.OUT + "port=");
        assertThat(at).as("the app started; its output:%n%s", String.join("\n", out)).isNotNegative();
        return Integer.parseInt(out.get(at).substring((DrainApp.OUT + "port=").length()).trim());
    }

    static int indexOf(List<String> out, String prefix) {
        for (int i = 0; i < out.size(); i++) {
            if (out.get(i).startsWith(prefix)) {
                return i;
            }
        }
        return -1;
    }

    /** The {@code name=value} pairs of the app's line {@code DRAIN-APP <kind>...}. */
    static Map<String, Long> counts(List<String> out, String kind) {
        int at = indexOf(out, DrainApp.OUT + kind);
        assertThat(at).as("the app printed its %scounts; its output:%n%s", kind, String.join("\n", out)).isNotNegative();
        Map<String, Long> counts = new HashMap<>();
        for (String pair : out.get(at).substring((DrainApp.OUT + kind).length()).trim().split(" ")) {
            String[] nameValue = pair.split("=");
            counts.put(nameValue[0], Long.parseLong(nameValue[1]));
        }
        return counts;
    }

    /**
     * Asserts what every drain must report: no subscriber went away only at the deadline, none was forced, and
     * readiness refused traffic before the drain's report.
     */
    static void assertDrainedWithinTheDeadline(List<String> out) {
        Map<String, Long> report = counts(out, "report ");
        assertThat(report.get("goneAwayAtDeadline")).isZero();
        assertThat(report.get("forced")).isZero();
        int readiness = indexOf(out, DrainApp.OUT + "readiness=REFUSING_TRAFFIC");
        assertThat(readiness).as("readiness refused traffic").isNotNegative()
                .isLessThan(indexOf(out, DrainApp.OUT + "report "));
    }

    /**
     * Writes the app's whole output to {@code target/<log>} (to look at), kills the app if it is still alive, and
     * asserts that this JVM has no child process left.
     */
    static void stop(Process app, List<String> out, String log) throws IOException, InterruptedException {
        Files.write(Path.of("target", log), out);
        if (app.isAlive()) {
            app.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList())
                .as("child processes left").isEmpty();
    }
}
