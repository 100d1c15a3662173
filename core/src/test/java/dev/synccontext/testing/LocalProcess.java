package dev.synccontext.testing;

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
 * A server process one test starts (redis-server, nginx, an application in a JVM of its own), in a temporary
 * directory of its own with its output in a log file there. Shared through core's test jar: the one way every
 * module's tests run a local server.
 *
 * <p>Guarantees: {@link #stop()} ends the process (SIGTERM, then SIGKILL after 15 s) and fails if it or any
 * process it started is still running; {@link #close()} does that, then deletes the directory. A JVM shutdown
 * hook kills the process if the test JVM exits first, so a test that dies leaves no server behind. It installs
 * nothing: a missing binary fails its test with the package to install.
 */
public class LocalProcess implements AutoCloseable {

    public final String name;
    public final Path directory;
    public final Path log;
    private final Process process;
    private final Thread killOnExit;

    /** Starts {@code command} in {@code directory}, its output (stdout and stderr) in {@code <name>.log} there. */
    protected LocalProcess(String name, Path directory, List<String> command) {
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

    /** A new temporary directory, {@code synccontext-<name>-*}. */
    public static Path temporaryDirectory(String name) {
        try {
            return Files.createTempDirectory("synccontext-" + name + "-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A TCP port of 127.0.0.1 that is free now. */
    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Fails with the package to install when {@code binary} is not an executable file. */
    public static void requireBinary(String binary, String debianPackage) {
        if (!Files.isExecutable(Path.of(binary))) {
            throw new AssertionError(binary + " is missing. Install it: apt-get install -y --no-install-recommends "
                    + debianPackage + " (bash test.sh does this itself when run as root).");
        }
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Polls {@code ready} until it holds; fails with the process's log if it exits or the deadline passes. */
    public void awaitReady(Duration timeout, BooleanSupplier ready) {
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

    /** The process's output so far. */
    public String logText() {
        try {
            return Files.exists(log) ? Files.readString(log) : "(no log)";
        } catch (IOException e) {
            return "(log unreadable: " + e + ")";
        }
    }

    /** SIGKILL, as a crashed machine would: no shutdown hook, no graceful close. */
    public void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** SIGTERM, as a deployment stops a server: a JVM runs its shutdown hooks (Spring closes its context). */
    public void terminate() {
        process.destroy();
    }

    /** {@link #terminate()}, then whether the process exited within {@code timeout}. */
    public boolean terminate(Duration timeout) throws InterruptedException {
        terminate();
        return awaitExit(timeout);
    }

    /** SIGSTOP, as a long GC pause or a frozen VM stalls a server: it keeps its sockets and does nothing. */
    public void pause() {
        signal("STOP");
    }

    /** SIGCONT: a paused process runs on from where it stopped. */
    public void resume() {
        signal("CONT");
    }

    /** SIGHUP: a daemon that reloads its configuration on it (nginx) does. */
    public void reload() {
        signal("HUP");
    }

    private void signal(String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Waits for the process to exit; whether it did within {@code timeout}. */
    public boolean awaitExit(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Ends the process (SIGTERM, then SIGKILL after 15 s) and fails if anything of it is left running. */
    public void stop() {
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
        if (process.isAlive()) {
            throw new AssertionError(name + " (pid " + process.pid() + ") is still running");
        }
        List<ProcessHandle> left = children.stream().filter(ProcessHandle::isAlive).toList();
        if (!left.isEmpty()) {
            throw new AssertionError("processes " + name + " started are still running: " + left);
        }
        try {
            Runtime.getRuntime().removeShutdownHook(killOnExit);
        } catch (IllegalStateException shuttingDown) {
            // the JVM is exiting: the hook is about to run, and finds the process gone
        }
    }

    /** {@link #stop()}, then deletes the directory. */
    @Override
    public void close() {
        stop();
        deleteRecursively(directory);
    }

    /** Deletes {@code directory} and everything in it; nothing when it does not exist. */
    public static void deleteRecursively(Path directory) {
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
