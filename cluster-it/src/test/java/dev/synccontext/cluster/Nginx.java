package dev.synccontext.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Debian's {@code nginx} as the load balancer in front of the nodes, on a free loopback port, with its
 * configuration, pid file, logs and temp paths in a temporary directory, in the foreground
 * ({@code daemon off}) so the test owns the master process and {@link #stop()} ends its workers too.
 */
final class Nginx extends Daemon {

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

    private Nginx(Path directory, int port) {
        super("nginx", directory, List.of(BINARY, "-p", directory.toString(), "-c", directory.resolve("nginx.conf").toString(),
                "-e", directory.resolve("error.log").toString()));
        this.port = port;
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
        String servers = nodePorts.stream().map(p -> "    server 127.0.0.1:" + p + " max_fails=1 fail_timeout="
                + Math.max(1, failTimeout.toSeconds()) + "s;")
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
        Nginx nginx = new Nginx(directory, port);
        nginx.awaitReady(Duration.ofSeconds(30), () -> {
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
                return true;
            } catch (IOException notYet) {
                return false;
            }
        });
        return nginx;
    }
}
