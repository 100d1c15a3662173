package dev.synccontext.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Debian's {@code redis-server} on a free loopback port, in a temporary directory, persisting nothing.
 * Spring Session's indexed repository enables the keyspace notifications it needs by itself
 * ({@code CONFIG SET notify-keyspace-events}).
 */
final class RedisServer extends Daemon {

    static final String BINARY = "/usr/bin/redis-server";

    final int port;

    private RedisServer(Path directory, int port) {
        super("redis-server", directory, List.of(BINARY, "--port", String.valueOf(port), "--bind", "127.0.0.1",
                "--dir", directory.toString(), "--save", "", "--appendonly", "no", "--daemonize", "no",
                "--protected-mode", "yes", "--loglevel", "warning"));
        this.port = port;
    }

    static RedisServer start() {
        RedisServer redis = new RedisServer(temporaryDirectory("redis"), FreePorts.next());
        redis.awaitReady(Duration.ofSeconds(30), () -> {
            try (RedisClient client = redis.client()) {
                return "PONG".equals(client.command("PING"));
            }
        });
        return redis;
    }

    RedisClient client() {
        return new RedisClient(port);
    }
}
