package dev.synccontext.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * A server process a test starts (redis-server, nginx, a child JVM node) in a temporary directory of
 * its own, with its output in a log file there. {@link #stop()} ends it and asserts that neither it
 * nor any process it started is left running, then deletes the directory.
 */
class Daemon implements AutoCloseable {

    final String name;
    final Path directory;
    final Path log;
    private final Process process;

    Daemon(String name, Path directory, List<String> command) {
        this.name = name;
        this.directory = directory;
        this.log = directory.resolve(name + ".log");
        try {
            this.process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start " + name + ": " + command, e);
        }
    }

    static Path temporaryDirectory(String name) {
        try {
            return Files.createTempDirectory("synccontext-" + name + "-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Polls {@code ready} until it holds; fails with the daemon's log if it exits or the deadline passes. */
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
                Thread.sleep(20); // polling a readiness condition with a deadline, not waiting out a race
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

    /** SIGKILL, as a crashed machine would: no shutdown hook, no graceful close. */
    void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** SIGTERM, as a deployment stops a node: the JVM runs its shutdown hooks (Spring closes its context). */
    void terminate() {
        process.destroy();
    }

    /** SIGSTOP, as a long GC pause or a frozen VM stalls a node: it keeps its sockets and does nothing. */
    void pause() {
        signal("STOP");
    }

    /** SIGCONT: a paused node runs on from where it stopped. */
    void resume() {
        signal("CONT");
    }

    /** SIGHUP: a daemon that reloads its configuration on it (nginx) does. */
    void reload() {
        signal("HUP");
    }

    private void signal(String name) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Waits for the process to exit; whether it did within {@code timeout}. */
    boolean awaitExit(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Ends the process (SIGTERM, then SIGKILL after 15 s) and asserts nothing of it is left running. */
    void stop() {
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
        assertThat(process.isAlive()).as("%s (pid %d) is still running", name, process.pid()).isFalse();
        assertThat(children.stream().filter(ProcessHandle::isAlive).toList())
                .as("processes %s started are still running", name).isEmpty();
    }

    @Override
    public void close() {
        stop();
        deleteRecursively(directory);
    }

    static void deleteRecursively(Path directory) {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
