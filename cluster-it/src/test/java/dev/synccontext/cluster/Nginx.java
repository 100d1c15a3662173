package dev.synccontext.cluster;

import dev.synccontext.testing.LocalProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Debian's {@code nginx} as the load balancer in front of the nodes, on a free loopback port, with its
 * configuration, pid file, logs and temp paths in a temporary directory, in the foreground
 * ({@code daemon off}) so the test owns the master process and {@link #stop()} ends its workers too.
 */
final class Nginx extends LocalProcess {

    static final String BINARY = "/usr/sbin/nginx";

    /** How the upstream picks a node. */
    enum Balancing {
        /**
         * Session affinity: a consistent hash of the {@code route} cookie that each client sets once
         * ({@code ip_hash} would send every loopback client to one node).
         */
        AFFINITY("hash $cookie_route consistent;"),
        /** Plain round robin: a session's requests alternate between the nodes. */
        ROUND_ROBIN("");

        final String directive;

        Balancing(String directive) {
            this.directive = directive;
        }
    }

    /**
     * The location of the event streams ({@code SessionBoardController}), proxied as Server-Sent Events need:
     * no response buffering (each event reaches the client when the node writes it), a read timeout longer
     * than any quiet stream, and a request that a node cannot take (connection refused: it stopped; or 503:
     * it is draining and refuses the stream) passed on to the next node (a GET, so nginx retries it).
     */
    static final String EVENT_STREAMS = "/live/events";

    final int port;

    private final Balancing balancing;
    private final List<Integer> nodePorts;
    private final Duration failTimeout;

    private Nginx(Path directory, int port, Balancing balancing, List<Integer> nodePorts, Duration failTimeout) {
        super("nginx", directory, List.of(BINARY, "-p", directory.toString(), "-c", directory.resolve("nginx.conf").toString(),
                "-e", directory.resolve("error.log").toString()));
        this.port = port;
        this.balancing = balancing;
        this.nodePorts = List.copyOf(nodePorts);
        this.failTimeout = failTimeout;
    }

    /** The first {@code max} lines of nginx's error log about a node's answer (not a refused connect, which it retries). */
    List<String> upstreamErrors(int max) {
        try {
            Path errors = directory.resolve("error.log");
            return Files.exists(errors) ? Files.readAllLines(errors).stream()
                    .filter(l -> l.contains("upstream") && !l.contains("Connection refused")).limit(max).toList()
                    : List.of();
        } catch (IOException e) {
            return List.of("(error log unreadable: " + e + ")");
        }
    }

    static Nginx start(Balancing balancing, List<Integer> nodePorts) {
        return start(balancing, nodePorts, Duration.ofSeconds(30));
    }

    /**
     * As {@link #start(Balancing, List)}, with how long a node that failed once is left out ({@code fail_timeout}):
     * short when a test restarts nodes under load, so a node that came back gets its sessions again soon.
     */
    static Nginx start(Balancing balancing, List<Integer> nodePorts, Duration failTimeout) {
        Path directory = temporaryDirectory("nginx");
        int port = FreePorts.next();
        writeConf(directory, port, balancing, nodePorts, failTimeout, List.of());
        Nginx nginx = new Nginx(directory, port, balancing, nodePorts, failTimeout);
        nginx.launch();
        return nginx;
    }

    private static void writeConf(Path directory, int port, Balancing balancing, List<Integer> nodePorts,
            Duration failTimeout, List<Integer> downPorts) {
        String servers = nodePorts.stream().map(p -> "    server 127.0.0.1:" + p + " max_fails=1 fail_timeout="
                + Math.max(1, failTimeout.toSeconds()) + "s" + (downPorts.contains(p) ? " down" : "") + ";")
                .collect(Collectors.joining("\n"));
        String conf = """
                daemon off;
                worker_processes 1;
                pid %1$s/nginx.pid;
                error_log %1$s/error.log warn;
                events { worker_connections 4096; }
                http {
                  access_log off;
                  client_body_temp_path %1$s/client_body;
                  proxy_temp_path %1$s/proxy;
                  fastcgi_temp_path %1$s/fastcgi;
                  uwsgi_temp_path %1$s/uwsgi;
                  scgi_temp_path %1$s/scgi;
                  upstream nodes {
                    %2$s
                %3$s
                    keepalive 16;
                  }
                  server {
                    listen 127.0.0.1:%4$d;
                    location / {
                      proxy_pass http://nodes;
                      proxy_http_version 1.1;
                      proxy_set_header Connection "";
                      proxy_set_header Host $host:$server_port;
                      proxy_connect_timeout 2s;
                      proxy_next_upstream error timeout;
                    }
                    location %5$s {
                      proxy_pass http://nodes;
                      proxy_http_version 1.1;
                      proxy_set_header Connection "";
                      proxy_set_header Host $host:$server_port;
                      proxy_connect_timeout 2s;
                      proxy_buffering off;
                      proxy_cache off;
                      proxy_read_timeout 1h;
                      proxy_next_upstream error timeout http_503;
                    }
                  }
                }
                """.formatted(directory, balancing.directive, servers, port, EVENT_STREAMS);
        try {
            Files.writeString(directory.resolve("nginx.conf"), conf);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The deploy recipe of autoconfigure/README ("Running on several nodes"): takes the node on {@code nodePort} out
     * of the upstream ({@code down}) and reloads, then waits until every worker of the old configuration exited
     * (each finishes its requests in flight first), so no request reaches that node any more.
     */
    void drain(int nodePort) {
        reconfigure(List.of(nodePort));
    }

    /** Puts every node back into the upstream, reloads and waits for the old workers to exit. */
    void undrain() {
        reconfigure(List.of());
    }

    private void reconfigure(List<Integer> downPorts) {
        Set<Long> old = workers();
        writeConf(directory, port, balancing, nodePorts, failTimeout, downPorts);
        reload();
        awaitReady(Duration.ofSeconds(60), () -> {
            Set<Long> now = workers();
            return !now.isEmpty() && now.stream().noneMatch(old::contains);
        });
    }

    private Set<Long> workers() {
        return ProcessHandle.of(pid()).stream().flatMap(ProcessHandle::children).map(ProcessHandle::pid)
                .collect(Collectors.toSet());
    }

    private void launch() {
        awaitReady(Duration.ofSeconds(30), () -> {
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
                return true;
            } catch (IOException notYet) {
                return false;
            }
        });
    }
}
