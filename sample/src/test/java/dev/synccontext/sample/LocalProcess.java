package dev.synccontext.sample;

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
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * A server process one test starts (redis-server, the sample in a JVM of its own), in a temporary directory of its
 * own with its output in a log file there, as cluster-it's {@code Daemon} starts its daemons. {@link #close()} ends
 * it (SIGTERM, then SIGKILL), checks that neither it nor anything it started is left running, and deletes the
 * directory; a JVM shutdown hook kills it if the test JVM dies first.
 */
class LocalProcess implements AutoCloseable {

    final String name;
    final Path directory;
    private final Path log;
    private final Process process;
    private final Thread killOnExit;

    LocalProcess(String name, Path directory, List<String> command) {
        this.name = name;
        this.directory = directory;
        this.log = directory.resolve(name + ".log");
        try {
            this.process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start " + name + ": " + command, e);
        }
        this.killOnExit = new Thread(process::destroyForcibly, "kill-test-" + name);
        Runtime.getRuntime().addShutdownHook(killOnExit);
    }

    static Path temporaryDirectory(String name) {
        try {
            return Files.createTempDirectory("synccontext-sample-" + name + "-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A port of 127.0.0.1 free now. */
    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Polls {@code ready} until it holds; fails with the process's log if it exits or the deadline passes. */
    void awaitReady(Duration timeout, BooleanSupplier ready) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with " + process.exitValue() + ":\n" + logText());
            }
            try {
                if (ready.getAsBoolean()) {
                    return;
                }
            } catch (RuntimeException notYet) {
                // not listening yet
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(name + " not ready within " + timeout + ":\n" + logText());
            }
            try {
                Thread.sleep(50); // polling a readiness condition with a deadline, not waiting out a race
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    String logText() {
        try {
            return Files.exists(log) ? Files.readString(log) : "(no log)";
        } catch (IOException e) {
            return "(log unreadable: " + e + ")";
        }
    }

    /** SIGTERM, as a deployment stops a server; whether it exited within {@code timeout}. */
    boolean terminate(Duration timeout) throws InterruptedException {
        process.destroy();
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        List<ProcessHandle> children = process.descendants().toList();
        process.destroy();
        try {
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
            for (ProcessHandle child : children) {
                child.onExit().get(10, TimeUnit.SECONDS);
            }
        } catch (Exception e) {
            children.forEach(ProcessHandle::destroyForcibly);
        }
        if (process.isAlive() || children.stream().anyMatch(ProcessHandle::isAlive)) {
            throw new AssertionError(name + " (pid " + process.pid() + ") or a process it started is still running");
        }
        Runtime.getRuntime().removeShutdownHook(killOnExit);
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
