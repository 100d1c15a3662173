package dev.synccontext.testing;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A JUnit 5 extension that tears down what a test started and fails the test if a thread it started is
 * still alive afterwards. Register it as an instance field ({@code @RegisterExtension final
 * NoThreadLeftStuck threads = new NoThreadLeftStuck();}) and take pools and threads from it; after each
 * test it closes what was handed to {@link #closing}, shuts every pool down ({@code shutdownNow}, which
 * interrupts), and then waits up to the guard ({@value #DEFAULT_GUARD_SECONDS} s unless given) for every
 * thread it watches to end.
 *
 * <p>Guarantee: a watched thread still alive when the guard runs out fails the test with an
 * {@link AssertionError} naming the thread, its state and its stack; a test that failed already keeps its
 * own failure and gets this one as suppressed (JUnit's rule for after-each failures). It watches only
 * threads made by its own factories or handed to {@link #watch}; threads of the library, of Spring or of
 * the JVM are not its business. The guard is a hang guard, never a speed bound: a thread that ends in time
 * passes however long it took.
 */
public final class NoThreadLeftStuck implements AfterEachCallback {

    static final long DEFAULT_GUARD_SECONDS = 30;

    private final Duration guard;
    private final List<Thread> watched = new ArrayList<>();
    private final List<ExecutorService> pools = new ArrayList<>();
    private final Deque<AutoCloseable> closeables = new ArrayDeque<>();
    private final AtomicInteger poolCount = new AtomicInteger();

    public NoThreadLeftStuck() {
        this(Duration.ofSeconds(DEFAULT_GUARD_SECONDS));
    }

    public NoThreadLeftStuck(Duration guard) {
        this.guard = guard;
    }

    /** A fixed pool of {@code threads} daemon threads named {@code pool-N-thread-M}, shut down and watched. */
    public ExecutorService fixedPool(int threads) {
        return fixedPool(threads, "pool-" + poolCount.incrementAndGet() + "-thread-");
    }

    /** A fixed pool of {@code threads} daemon threads named {@code namePrefix} plus a number, shut down and watched. */
    public ExecutorService fixedPool(int threads, String namePrefix) {
        return pool(Executors.newFixedThreadPool(threads, threadFactory(namePrefix)));
    }

    /**
     * A new executor that starts a virtual thread per task, shut down after the test. Below Java 21 the test is
     * skipped (an assumption), not failed. Its threads are not watched (they are not made here); the guard waits
     * for the executor to terminate.
     */
    public ExecutorService virtualThreadPerTask() {
        Assumptions.assumeTrue(Runtime.version().feature() >= 21, "virtual threads need Java 21");
        try {
            return pool((ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null));
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("Java " + Runtime.version().feature() + " has no virtual-thread executor", e);
        }
    }

    /** A factory whose threads are watched; pass it to an executor that is then handed to {@link #pool}. */
    public ThreadFactory threadFactory(String namePrefix) {
        AtomicInteger count = new AtomicInteger();
        return task -> watch(daemon(new Thread(task, namePrefix + count.incrementAndGet())));
    }

    /** Shuts {@code pool} down after the test ({@code shutdownNow}); its threads are watched only if made here. */
    public synchronized <E extends ExecutorService> E pool(E pool) {
        pools.add(pool);
        return pool;
    }

    /** A new, not yet started daemon thread that is watched. */
    public Thread thread(String name, Runnable body) {
        return watch(daemon(new Thread(body, name)));
    }

    /** Starts a new daemon thread that is watched. */
    public Thread start(String name, Runnable body) {
        Thread thread = thread(name, body);
        thread.start();
        return thread;
    }

    /** Watches {@code thread}: it must have ended by the end of the guard after the test. */
    public synchronized Thread watch(Thread thread) {
        watched.add(thread);
        return thread;
    }

    /** Closes {@code closeable} after the test, before the pools are shut down (last handed, first closed). */
    public synchronized <C extends AutoCloseable> C closing(C closeable) {
        closeables.push(closeable);
        return closeable;
    }

    // Daemon, so that a thread left stuck fails its test without also keeping the test JVM alive.
    private static Thread daemon(Thread thread) {
        thread.setDaemon(true);
        return thread;
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        tearDown(context.getDisplayName());
    }

    /**
     * Closes, shuts down and waits as {@link #afterEach} does, then throws if a watched thread is still
     * alive: what {@code afterEach} runs, callable without JUnit (the extension's own test does).
     */
    public void tearDown(String testName) throws Exception {
        List<Thread> threads;
        List<ExecutorService> toStop;
        List<AutoCloseable> toClose;
        synchronized (this) {
            threads = List.copyOf(watched);
            toStop = List.copyOf(pools);
            toClose = List.copyOf(closeables);
            watched.clear();
            pools.clear();
            closeables.clear();
        }
        Exception closeFailure = null;
        for (AutoCloseable closeable : toClose) {
            try {
                closeable.close();
            } catch (Exception e) {
                if (closeFailure == null) {
                    closeFailure = e;
                } else {
                    closeFailure.addSuppressed(e);
                }
            }
        }
        long deadline = System.nanoTime() + guard.toNanos();
        List<String> stuckPools = new ArrayList<>();
        for (ExecutorService pool : toStop) {
            pool.shutdownNow();
        }
        for (ExecutorService pool : toStop) {
            if (!pool.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                stuckPools.add(pool.toString());
            }
        }
        String stuck = stuckThreads(threads, Math.max(0, deadline - System.nanoTime()));
        if (stuck != null || !stuckPools.isEmpty()) {
            AssertionError failure = new AssertionError(testName + " left " + (stuck != null ? stuck : "")
                    + (stuckPools.isEmpty() ? "" : "pools not terminated " + guard + " after shutdownNow: "
                    + stuckPools));
            if (closeFailure != null) {
                failure.addSuppressed(closeFailure);
            }
            throw failure;
        }
        if (closeFailure != null) {
            throw closeFailure;
        }
    }

    /**
     * Waits up to {@code waitNanos} in all for {@code threads} to end; null if they all did, else each
     * one still alive with its name, state and stack (one {@code at} line per frame).
     */
    public static String stuckThreads(List<Thread> threads, long waitNanos) throws InterruptedException {
        long deadline = System.nanoTime() + waitNanos;
        StringBuilder stuck = new StringBuilder();
        for (Thread thread : threads) {
            long left = deadline - System.nanoTime();
            if (left > 0) {
                TimeUnit.NANOSECONDS.timedJoin(thread, left);
            }
            if (thread.isAlive()) {
                stuck.append("thread \"").append(thread.getName()).append("\" alive (")
                        .append(thread.getState()).append("):");
                for (StackTraceElement frame : thread.getStackTrace()) {
                    stuck.append("\n\tat ").append(frame);
                }
                stuck.append('\n');
            }
        }
        return stuck.length() == 0 ? null : stuck.toString();
    }
}
