package dev.synccontext.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A probe run in a fresh JVM: the test's own java binary and class path, for what only a JVM's first use shows
 * (class loading, a first registration) or what must not outlive an application (its class loader). The probe
 * prints {@code EXIT} as its last line; {@link #run} returns every line it printed (stdout and stderr), once the
 * child has exited; {@link #start} starts one the test talks to while it runs. Shared through core's test jar.
 */
public final class ChildJvm {

    private ChildJvm() {
    }

    /**
     * Runs {@code java -cp <the test class path> args...} and returns its output; fails if the child has not
     * exited within {@code timeout} or never printed {@code EXIT}.
     */
    public static List<String> run(Duration timeout, String... args) throws IOException, InterruptedException {
        Process process = start(args);
        List<String> lines = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = out.readLine()) != null;) {
                lines.add(line);
            }
        }
        assertThat(process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)).as("child exited").isTrue();
        assertThat(lines).as("child output").contains("EXIT");
        return lines;
    }

    /**
     * Starts {@code java -cp <the test class path> args...}, its error output merged into its output, and returns
     * at once: for a child the test talks to while it runs; the caller reads its output and ends it.
     */
    public static Process start(String... args) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-cp",
                System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"))));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }
}
