package dev.synccontext;

/** How a callback reached the thread that ran it. Used for metrics; see {@link SyncContextObserver}. */
public enum CallbackPath {
    /** Claimed an idle context and ran on the caller's thread ({@code invokeAsync*}). */
    INLINE,
    /**
     * Queued and ran on the executor ({@code invokeAsync*} on a busy context, {@code post}, {@code execute}),
     * or, for a queued {@code invokeAsync*}, on the thread blocked in its future's {@code join}/{@code get}
     * when its turn came.
     */
    QUEUED,
    /** Called from inside the context and ran right away as a plain method call. */
    NESTED,
    /** A {@code send} from outside the context, idle or after waiting for its turn. */
    SEND
}
