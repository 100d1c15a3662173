package dev.synccontext.scenario;

import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What every built-in scenario shares: its name, its size, the guard that keeps one invocation at a
 * time on an instance, and the bounded wait that turns a context that dropped work into an
 * {@link IllegalStateException} instead of a hang.
 */
abstract class LoopScenario implements Scenario {

    /** How long a scenario waits for work a context should long have run. Generous: a verdict, not a timing. */
    static final Duration DEFAULT_PATIENCE = Duration.ofSeconds(30);

    private final String name;
    private final int operations;
    private final long patienceNanos;
    private final AtomicBoolean running = new AtomicBoolean();

    LoopScenario(String name, int operations, Duration patience) {
        this.name = name;
        this.operations = operations;
        this.patienceNanos = patience.toNanos();
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final int operationsPerInvocation() {
        return operations;
    }

    @Override
    public final void runOnce(RendererSyncContext context) throws Exception {
        if (!running.compareAndSet(false, true)) {
            throw new IllegalStateException("Scenario " + name + " is already running on another thread;"
                    + " one instance runs one invocation at a time (get another from Scenarios)");
        }
        try {
            loop(context);
        } finally {
            running.set(false);
        }
    }

    /** The timed loop, including its one verification. */
    abstract void loop(RendererSyncContext context) throws Exception;

    /**
     * The result of {@code future}, waiting at most the patience; what a context that dropped the
     * work gets is an {@link IllegalStateException} that says what was awaited.
     */
    final <T> T await(CompletableFuture<T> future, RendererSyncContext context, String what) throws Exception {
        return await(future, context, what, -1);
    }

    /** Same, for call number {@code index} of a loop (the message is only built on failure). */
    final <T> T await(CompletableFuture<T> future, RendererSyncContext context, String what, int index)
            throws Exception {
        if (future.isDone() && !future.isCompletedExceptionally()) {
            return future.join();
        }
        if (index >= 0) {
            what = what + " #" + index + " on " + Thread.currentThread().getName();
        }
        try {
            return future.get(patienceNanos, TimeUnit.NANOSECONDS);
        } catch (TimeoutException dropped) {
            throw new IllegalStateException(name + ": " + what + " did not happen within "
                    + Duration.ofNanos(patienceNanos) + " on context '" + context.name()
                    + "'; the context dropped or stalled work", dropped);
        } catch (ExecutionException failed) {
            throw new IllegalStateException(name + ": " + what + " failed on context '" + context.name()
                    + "': " + failed.getCause(), failed.getCause());
        }
    }

    /** Throws the scenario's verdict when {@code ok} is false. */
    final void verify(boolean ok, RendererSyncContext context, String expectation, Object actual) {
        if (!ok) {
            throw new IllegalStateException(name + " on context '" + context.name() + "': expected "
                    + expectation + " but was " + actual);
        }
    }
}
