package dev.synccontext.testing;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Debian's {@code redis-server} on a free loopback port, in a temporary directory, persisting nothing (no RDB
 * snapshot, no append-only file), in the foreground so the test owns the process; {@link #start()} returns once
 * it answers {@code PING}, and {@link #close()} stops it, fails if it is still running, and deletes its directory
 * (see {@link LocalProcess}). The one launcher of every module's Redis tests; a module adds its own client on top.
 * Spring Session's indexed repository enables the keyspace notifications it needs by itself
 * ({@code CONFIG SET notify-keyspace-events}).
 */
public class RedisServerProcess extends LocalProcess {

    public static final String BINARY = "/usr/bin/redis-server";

    /** The port it listens on, on 127.0.0.1. */
    public final int port;

    /** Starts a server and waits until it answers; stops it again if it does not within 30 s. */
    protected RedisServerProcess() {
        this(directoryIfInstalled(), freePort());
    }

    private static Path directoryIfInstalled() {
        requireBinary(BINARY, "redis-server");
        return temporaryDirectory("redis");
    }

    private RedisServerProcess(Path directory, int port) {
        super("redis-server", directory, List.of(BINARY, "--port", String.valueOf(port), "--bind", "127.0.0.1",
                "--dir", directory.toString(), "--save", "", "--appendonly", "no", "--daemonize", "no",
                "--protected-mode", "yes", "--loglevel", "warning"));
        this.port = port;
        try {
            awaitReady(Duration.ofSeconds(30), this::answersPing);
        } catch (RuntimeException notStarted) {
            super.close(); // a server that did not come up is not left running (not a subclass's close: it is not built yet)
            throw notStarted;
        }
    }

    /** A server on a free port, answering. */
    public static RedisServerProcess start() {
        return new RedisServerProcess();
    }

    /** {@code PING} answered {@code +PONG}, on a connection of its own. */
    private boolean answersPing() {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            return new String(in.readNBytes(7), StandardCharsets.US_ASCII).equals("+PONG\r\n");
        } catch (IOException notYet) {
            return false;
        }
    }
}
