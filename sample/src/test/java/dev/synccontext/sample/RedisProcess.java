package dev.synccontext.sample;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Debian's {@code redis-server} on a free loopback port, in a temporary directory, persisting nothing (the options
 * cluster-it's {@code RedisServer} starts it with): what the sample's {@code redis} profile connects to in a test.
 */
final class RedisProcess extends LocalProcess {

    static final String BINARY = "/usr/bin/redis-server";

    final int port;

    private RedisProcess(Path directory, int port) {
        super("redis-server", directory, List.of(BINARY, "--port", String.valueOf(port), "--bind", "127.0.0.1",
                "--dir", directory.toString(), "--save", "", "--appendonly", "no", "--daemonize", "no",
                "--protected-mode", "yes", "--loglevel", "warning"));
        this.port = port;
    }

    static RedisProcess start() {
        if (!Files.isExecutable(Path.of(BINARY))) {
            throw new AssertionError(BINARY + " is missing. Install it: apt-get install -y --no-install-recommends"
                    + " redis-server (bash test.sh does this itself when run as root).");
        }
        RedisProcess redis = new RedisProcess(temporaryDirectory("redis"), freePort());
        redis.awaitReady(Duration.ofSeconds(30), redis::answersPing);
        return redis;
    }

    /** {@code PING} answered {@code +PONG}, on a connection of its own. */
    private boolean answersPing() {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            byte[] answer = in.readNBytes(7);
            return new String(answer, StandardCharsets.US_ASCII).equals("+PONG\r\n");
        } catch (IOException notYet) {
            return false;
        }
    }
}
