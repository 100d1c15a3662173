package dev.synccontext;

/** How a callback ended. Used for metrics; see {@link SyncContextObserver}. */
public enum CallbackOutcome {
    /** The callback returned normally (for {@code invokeAsyncStage}: its synchronous part did). */
    SUCCESS,
    /** The callback threw. */
    FAILURE,
    /** The callback threw a {@link java.util.concurrent.CancellationException}, or was cancelled or aborted before it started. */
    CANCELLED,
    /** The callback was never accepted: the context was closed or full, or the executor refused its drain. */
    REJECTED
}
