package dev.synccontext.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The shared launcher: a server of the test's own on loopback, and nothing of it left after {@code close()}. */
@Tag("process")
class RedisServerProcessTest {

    @Test
    void startAnswersOnLoopbackAndCloseLeavesNoProcessAndNoDirectory() throws IOException {
        Path directory;
        long pid;
        int port;
        try (RedisServerProcess redis = RedisServerProcess.start()) {
            directory = redis.directory;
            pid = redis.pid();
            port = redis.port;
            assertThat(ping(port)).as("redis-server answers on 127.0.0.1:%d", port).isEqualTo("+PONG");
            assertThat(directory).as("its own temporary directory").isDirectory();
        }
        assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).as("redis-server (pid %d) after close", pid)
                .isEmpty();
        assertThat(Files.exists(directory)).as("its directory after close").isFalse();
    }

    @Test
    void twoServersTakeTwoPortsAndTwoDirectories() {
        try (RedisServerProcess first = RedisServerProcess.start(); RedisServerProcess second = RedisServerProcess.start()) {
            assertThat(second.port).isNotEqualTo(first.port);
            assertThat(second.directory).isNotEqualTo(first.directory);
        }
    }

    private static String ping(int port) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            return new String(in.readNBytes(5), StandardCharsets.US_ASCII);
        }
    }
}
