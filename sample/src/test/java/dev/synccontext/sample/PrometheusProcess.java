package dev.synccontext.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import tools.jackson.databind.JsonNode;

/**
 * A real Prometheus server (the Debian package's {@code /usr/bin/prometheus}) started for one test: its
 * own generated configuration, its own storage directory and a free port on 127.0.0.1, so a system
 * service that the package may have started elsewhere never matters. {@link #close()} stops it; a JVM
 * shutdown hook kills it if the test JVM dies first.
 */
final class PrometheusProcess implements AutoCloseable {

    static final String INSTALL_HINT = "Install it: apt-get install -y --no-install-recommends prometheus "
            + "(bash test.sh does this itself when run as root), or set PROMETHEUS_BIN to a prometheus binary.";

    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

    private final Process process;
    private final Thread killOnExit;
    private final Path log;
    private final URI base;
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    private PrometheusProcess(Process process, Path log, int port) {
        this.process = process;
        this.log = log;
        this.base = URI.create("http://127.0.0.1:" + port);
        this.killOnExit = new Thread(process::destroyForcibly, "kill-test-prometheus");
        Runtime.getRuntime().addShutdownHook(killOnExit);
    }

    /** The prometheus binary: {@code PROMETHEUS_BIN}, else {@code prometheus} on the PATH; fails saying how to install it. */
    static Path binary() {
        String configured = System.getenv("PROMETHEUS_BIN");
        if (configured != null && !configured.isBlank()) {
            Path path = Path.of(configured);
            if (!Files.isExecutable(path)) {
                throw new AssertionError("PROMETHEUS_BIN=" + configured + " is not an executable file. " + INSTALL_HINT);
            }
            return path;
        }
        List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(":")));
        dirs.add("/usr/bin");
        return dirs.stream()
                .filter(dir -> !dir.isBlank())
                .map(dir -> Path.of(dir, "prometheus"))
                .filter(Files::isExecutable)
                .findFirst()
                .orElseThrow(() -> new AssertionError(
                        "The dashboard test runs a real Prometheus, and no prometheus binary was found on the PATH. "
                                + INSTALL_HINT));
    }

    /**
     * Starts Prometheus with {@code config} (YAML) in {@code workDir} (config, {@code data/}, log), listening
     * on a free port of 127.0.0.1, and waits until it says it is ready. A port taken between probing it
     * and Prometheus binding it is retried with another.
     */
    static PrometheusProcess start(Path binary, Path workDir, String config) throws IOException, InterruptedException {
        Files.createDirectories(workDir);
        Path configFile = workDir.resolve("prometheus.yml");
        Files.writeString(configFile, config);
        AssertionError lastFailure = null;
        for (int attempt = 1; attempt <= 3; attempt++) {
            Path data = workDir.resolve("data");
            deleteRecursively(data);
            Path log = workDir.resolve("prometheus.log");
            int port = freePort();
            Process process = new ProcessBuilder(binary.toString(),
                    "--config.file=" + configFile,
                    "--storage.tsdb.path=" + data,
                    "--storage.tsdb.retention.time=1h",
                    "--web.listen-address=127.0.0.1:" + port)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            PrometheusProcess prometheus = new PrometheusProcess(process, log, port);
            try {
                prometheus.awaitReady();
                return prometheus;
            } catch (AssertionError | RuntimeException | InterruptedException e) {
                prometheus.close();
                if (!(e instanceof AssertionError failure) || !prometheus.logTail().contains("address already in use")) {
                    throw e;
                }
                lastFailure = failure;
            }
        }
        throw lastFailure;
    }

    URI uri() {
        return base;
    }

    /** {@code GET /api/v1/query}: the instant vector's result array (fails on any error status). */
    JsonNode query(String promql) {
        JsonNode answer = getJson("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
        return answer.get("data").get("result");
    }

    /** {@code GET /api/v1/label/<label>/values?match[]=<selector>}: a template variable's label_values. */
    List<String> labelValues(String label, String selector) {
        JsonNode answer = getJson("/api/v1/label/" + label + "/values?match[]="
                + URLEncoder.encode(selector, StandardCharsets.UTF_8));
        List<String> values = new ArrayList<>();
        answer.get("data").forEach(value -> values.add(value.asString()));
        return values;
    }

    /** {@code GET /api/v1/rules}: the rule groups, each with its rules' state, health and last evaluation. */
    JsonNode ruleGroups() {
        return getJson("/api/v1/rules").get("data").get("groups");
    }

    /** {@code GET /api/v1/alerts}: the active alerts (pending and firing), each with its labels and state. */
    JsonNode alerts() {
        return getJson("/api/v1/alerts").get("data").get("alerts");
    }

    /** {@code GET /api/v1/targets}: the active targets. */
    JsonNode activeTargets() {
        return getJson("/api/v1/targets?state=active").get("data").get("activeTargets");
    }

    /** The last lines of Prometheus's own log, for failure messages. */
    String logTail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Stops Prometheus (SIGTERM, then SIGKILL after 10 s) and waits for it to exit. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(killOnExit);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or about to: it kills the process anyway
            }
        }
    }

    private void awaitReady() throws InterruptedException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new AssertionError("prometheus exited with " + process.exitValue() + " before it was ready:\n" + logTail());
            }
            try {
                var reply = http.send(HttpRequest.newBuilder(base.resolve("/-/ready")).timeout(Duration.ofSeconds(2)).build(),
                        BodyHandlers.discarding());
                if (reply.statusCode() == 200) {
                    return;
                }
            } catch (IOException notListeningYet) {
                // starting up; poll again
            }
            Thread.sleep(100);
        }
        throw new AssertionError("prometheus was not ready within " + START_TIMEOUT + ":\n" + logTail());
    }

    private JsonNode getJson(String pathAndQuery) {
        try {
            var reply = http.send(HttpRequest.newBuilder(URI.create(base + pathAndQuery)).timeout(Duration.ofSeconds(10)).build(),
                    BodyHandlers.ofString());
            JsonNode json = BoardClient.JSON.readTree(reply.body());
            if (reply.statusCode() != 200 || !"success".equals(json.path("status").asString())) {
                throw new AssertionError("Prometheus refused " + pathAndQuery + ": HTTP " + reply.statusCode() + " " + reply.body());
            }
            return json;
        } catch (IOException e) {
            throw new UncheckedIOException("Prometheus at " + base + " did not answer " + pathAndQuery + "\n" + logTail(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
                Files.delete(path);
            }
        }
    }
}
