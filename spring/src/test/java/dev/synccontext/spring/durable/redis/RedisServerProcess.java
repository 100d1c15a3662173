package dev.synccontext.spring.durable.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Debian's {@code redis-server} on a free loopback port in a temporary directory, persisting nothing, as
 * cluster-it's {@code RedisServer} starts it; {@link #close()} stops it and asserts the process is gone. Gives a
 * Spring Data connection factory for the store and a raw Lettuce connection for what a test inspects or
 * tampers with.
 */
final class RedisServerProcess implements AutoCloseable {

    static final String BINARY = "/usr/bin/redis-server";

    private final Path directory;
    private final Process process;
    final int port;
    private final RedisClient rawClient;
    private final StatefulRedisConnection<String, String> rawConnection;

    private RedisServerProcess(Path directory, int port) throws IOException {
        this.directory = directory;
        this.port = port;
        this.process = new ProcessBuilder(List.of(BINARY, "--port", String.valueOf(port), "--bind", "127.0.0.1",
                "--dir", directory.toString(), "--save", "", "--appendonly", "no", "--daemonize", "no",
                "--protected-mode", "yes", "--loglevel", "warning"))
                .directory(directory.toFile()).redirectErrorStream(true)
                .redirectOutput(directory.resolve("redis.log").toFile()).start();
        this.rawClient = RedisClient.create(RedisURI.create("127.0.0.1", port));
        this.rawConnection = connectWhenReady(Duration.ofSeconds(30));
    }

    static RedisServerProcess start() {
        if (!Files.isExecutable(Path.of(BINARY))) {
            throw new IllegalStateException(BINARY + " is missing: apt-get install -y --no-install-recommends"
                    + " redis-server (test.sh installs it)");
        }
        try {
            return new RedisServerProcess(Files.createTempDirectory("synccontext-durable-redis-"), freePort());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private StatefulRedisConnection<String, String> connectWhenReady(Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (!process.isAlive()) {
                throw new IllegalStateException("redis-server exited with " + process.exitValue() + ": "
                        + Files.readString(directory.resolve("redis.log")));
            }
            try {
                StatefulRedisConnection<String, String> connection = rawClient.connect();
                if ("PONG".equals(connection.sync().ping())) {
                    return connection;
                }
                connection.close();
            } catch (RuntimeException notListeningYet) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("redis-server not ready within " + timeout, notListeningYet);
                }
            }
            try {
                Thread.sleep(20); // polling a readiness condition with a deadline, not waiting out a race
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    /** A connection factory for the store under test; the caller destroys it. */
    LettuceConnectionFactory connectionFactory() {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration("127.0.0.1", port));
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }

    /** Raw commands, past the store: what a test inspects, resets or tampers with. */
    RedisCommands<String, String> raw() {
        return rawConnection.sync();
    }

    /** Stops the server and asserts it is gone, then deletes its directory. */
    @Override
    public void close() throws Exception {
        rawConnection.close();
        rawClient.shutdown();
        process.destroy();
        if (!process.waitFor(15, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
        assertThat(process.isAlive()).as("redis-server (pid %d) is still running", process.pid()).isFalse();
        assertThat(ProcessHandle.of(process.pid()).filter(ProcessHandle::isAlive))
                .as("redis-server (pid %d) is still running", process.pid()).isEmpty();
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }
}
