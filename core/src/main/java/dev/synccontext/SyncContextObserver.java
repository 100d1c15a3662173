package dev.synccontext;

/**
 * Receives what a context does, for metrics and diagnostics. One observer is usually shared by many
 * contexts (so metrics aggregate instead of creating a meter per session); it must be thread-safe,
 * fast and must not throw (what it throws is logged and ignored).
 *
 * <p>Calls happen on the thread that did the work: {@link #callbackFinished} and {@link #callbackSampled}
 * on the thread that ran the callback, inside the context (or on the submitting thread for a
 * rejection); {@link #callbackBlocked} on the watchdog thread.
 *
 * <h2>Sampling</h2>
 * Counting every task is cheap; timing is not. So {@link #callbackFinished} is called for every
 * callback, while {@link #callbackSampled} is called for about one callback in
 * {@link #samplingInterval()}: queued callbacks are chosen when they are queued (to measure their
 * wait), others when they start. Scale sampled sums by the interval to estimate totals.
 */
public interface SyncContextObserver {

    /** Called once for every callback, after it ended (or when it was rejected). */
    default void callbackFinished(RendererSyncContext context, CallbackPath path, CallbackOutcome outcome) {
    }

    /**
     * Called for sampled callbacks after they ended.
     *
     * @param waitNanos time between being queued and starting; 0 for callbacks that never queued
     * @param runNanos time the callback (its synchronous part) ran
     * @param allocatedBytes bytes the running thread allocated while it ran, or -1 if the JVM cannot
     *     tell
     */
    default void callbackSampled(RendererSyncContext context, CallbackPath path, long waitNanos, long runNanos,
            long allocatedBytes) {
    }

    /**
     * About one callback in this many is sampled; must be a power of two. 0 turns sampling off.
     * Read once, when a context is built.
     */
    default int samplingInterval() {
        return SyncContextDefaults.SAMPLING_INTERVAL;
    }

    /** A callback failure reached the unhandled-exception handler. */
    default void unhandledException(RendererSyncContext context, Throwable failure) {
    }

    /** The watchdog found a callback running longer than its context's threshold (once per callback). */
    default void callbackBlocked(BlockedCallback blocked) {
    }
}
