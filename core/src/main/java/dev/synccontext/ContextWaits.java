package dev.synccontext;

import java.util.Objects;
import java.util.concurrent.Future;
import org.jspecify.annotations.Nullable;

/**
 * How a library that blocks in its own way takes part in deadlock detection (docs/DESIGN.md, "Deadlock
 * detection"): the {@code synccontext-reactor} artifact records a Reactor {@code block()} from inside a
 * context here, so that a cycle through it throws {@link ContextDeadlockException} as a cycle through
 * {@code join()} does. Application code does not need it.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>One graph.</b> A wait recorded here is an edge of the same wait-for graph as the waits on a
 *       context's futures and {@code send}s: a {@code join} whose cycle passes through it throws, and a
 *       cycle it closes is found by {@link #cycle} from any thread.</li>
 *   <li><b>Free outside contexts.</b> A thread that runs no callback records nothing ({@link #enter}
 *       returns {@link Wait#NONE}): nothing can wait on it.</li>
 *   <li><b>No false positives from the graph.</b> Each hop of a cycle is read again after its owner
 *       (as for every wait); the {@link Need} must say only what the wait really needs to end.</li>
 * </ul>
 */
public final class ContextWaits {

    private ContextWaits() {
    }

    /** What a wait needs to end. Read again whenever a cycle is checked; must be thread-safe and cheap. */
    @FunctionalInterface
    public interface Need {

        /**
         * The context that must still run (or finish running) a callback before the wait can end, or
         * null if none must right now (it may need one later: then {@link #cycle} is asked again).
         */
        @Nullable RendererSyncContext neededContext();
    }

    /** A recorded wait; {@link #close()} removes it. Not reusable. */
    public static final class Wait implements AutoCloseable {

        /** Nothing recorded (the thread runs no callback). */
        public static final Wait NONE = new Wait(null);

        private final WaitGraph.@Nullable Wait recorded;

        private Wait(WaitGraph.@Nullable Wait recorded) {
            this.recorded = recorded;
        }

        /** Whether this wait is an edge of the graph (its thread runs a callback). */
        public boolean isRecorded() {
            return recorded != null;
        }

        /** The wait is over (or will not happen): removes the edge. Idempotent; any thread may call it. */
        @Override
        public void close() {
            WaitGraph.leave(recorded);
        }
    }

    /**
     * Records that the current thread is about to block until {@code need} is met, if it runs a callback
     * of a context; call {@link Wait#close()} when the wait ends, on every path. The wait is recorded
     * even while {@code need} says null, so that a wait through it can be followed once it needs a
     * context.
     *
     * @throws ContextDeadlockException (nothing left recorded) if the wait closes a cycle already
     */
    public static Wait enter(Need need) {
        Objects.requireNonNull(need, "need");
        WaitGraph.Wait recorded = WaitGraph.record(new External(need));
        if (recorded == null) {
            return Wait.NONE;
        }
        ContextDeadlockException deadlock = WaitGraph.deadlock(recorded);
        if (deadlock != null) {
            WaitGraph.leave(recorded);
            throw deadlock;
        }
        return new Wait(recorded);
    }

    /**
     * The cycle that {@code wait} closes now, described from its waiting thread's side (that thread
     * first), or null if none. For the code that has just made the wait need a context (queued work the
     * waiter waits for); any thread may ask. The wait stays recorded; the caller delivers the exception
     * to the waiter and ends the wait.
     */
    public static @Nullable ContextDeadlockException cycle(Wait wait) {
        WaitGraph.Wait recorded = wait.recorded;
        if (recorded == null) {
            return null;
        }
        ContextDeadlockException deadlock = WaitGraph.deadlock(recorded);
        // Only a wait that is still on: one that ended meanwhile closes no cycle.
        return deadlock != null && WaitGraph.isRecorded(recorded) ? deadlock : null;
    }

    /**
     * What a future handed out by a context (a queued {@code invokeAsync*} future, or one derived from
     * it) needs before it can complete, as the deadlock detection sees it; null for any other future and
     * for one that needs no context.
     */
    public static @Nullable RendererSyncContext neededBy(Future<?> future) {
        return future instanceof Awaited awaited ? awaited.neededContext() : null;
    }

    /** A {@link Need} as the graph's {@link Awaited}. */
    private record External(Need need) implements Awaited {
        @Override
        public @Nullable SyncContext neededContext() {
            RendererSyncContext needed = need.neededContext();
            return needed instanceof SyncContext context ? context : null;
        }
    }
}
