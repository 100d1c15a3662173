package dev.synccontext.sample;

import dev.synccontext.testing.LocalProcess;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The sample in a JVM of its own ({@link SampleApplication#main} on this test's class path), as {@code java -jar}
 * runs it, so a test can stop it with SIGTERM as a deployment does and start it again on the same port.
 */
final class SampleProcess extends LocalProcess {

    final int port;

    private SampleProcess(Path directory, List<String> command, int port) {
        super("sample", directory, command);
        this.port = port;
    }

    /** The sample on 127.0.0.1:{@code port} with {@code arguments} (Boot's {@code --name=value}), once healthy. */
    static SampleProcess start(int port, List<String> arguments) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                SampleApplication.class.getName(), "--server.port=" + port, "--server.address=127.0.0.1",
                "--spring.main.banner-mode=off"));
        command.addAll(arguments);
        SampleProcess sample = new SampleProcess(temporaryDirectory("sample"), command, port);
        HttpClient http = HttpClient.newHttpClient();
        try {
            sample.awaitReady(Duration.ofSeconds(300), () -> healthy(http, port));
        } catch (RuntimeException notStarted) {
            sample.close(); // a sample that did not come up is not left running
            throw notStarted;
        }
        return sample;
    }

    private static boolean healthy(HttpClient http, int port) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/health"))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException notYet) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
