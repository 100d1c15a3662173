package dev.synccontext.cluster;

import dev.synccontext.testing.LocalProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A node in a JVM of its own ({@link ClusterApp#main} with this test's class path), so a test can kill
 * it with SIGKILL as a crashed machine would be: no shutdown hook runs, no context is closed.
 */
final class ChildNode extends LocalProcess {

    final int port;

    private ChildNode(Path directory, List<String> command, int port) {
        super("node", directory, command);
        this.port = port;
    }

    static ChildNode start(String id, int redisPort, String repositoryType, String namespace, Map<String, String> extra) {
        return start(ClusterApp.class, id, FreePorts.next(), redisPort, repositoryType, namespace, extra);
    }

    /**
     * {@code application}'s {@code main} as a node on {@code port} (a node started again after a stop takes its old
     * port, so the balancer's upstream finds it).
     */
    static ChildNode start(Class<?> application, String id, int port, int redisPort, String repositoryType,
            String namespace, Map<String, String> extra) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                application.getName()));
        command.addAll(Node.properties(id, port, redisPort, repositoryType, namespace, extra));
        ChildNode node = new ChildNode(temporaryDirectory(id), command, port);
        HttpClient http = HttpClient.newHttpClient();
        try {
            awaitHealthy(node, http, port);
        } catch (RuntimeException notStarted) {
            node.close(); // a node that did not come up is not left running
            throw notStarted;
        }
        return node;
    }

    private static void awaitHealthy(ChildNode node, HttpClient http, int port) {
        node.awaitReady(Duration.ofSeconds(240), () -> {
            try {
                return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/health"))
                        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
            } catch (java.io.IOException notYet) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        });
    }
}
