package dev.synccontext;

import org.jspecify.annotations.Nullable;

/**
 * What one thread is doing for the contexts, kept in one mutable object per thread so that entering
 * and leaving a callback costs a single {@link ThreadLocal} lookup and a few plain writes.
 *
 * <p>Only the frame's own thread writes {@link #context}, {@link #seq} and {@link #sampleTick}; the
 * {@link Watchdog} reads them without synchronization, which is enough for a diagnostic that samples
 * (a stale read only delays a report by one scan). What the watchdog saw of this frame is kept by the
 * scans of each clock ({@link WatchdogScan}), not here.
 */
final class CallbackFrame {

    private static final ThreadLocal<CallbackFrame> FRAMES = ThreadLocal.withInitial(CallbackFrame::new);

    final Thread thread = Thread.currentThread();

    /** The innermost context whose callback (or drain) runs on this thread; null outside any. */
    @Nullable SyncContext context;

    /** Incremented each time a callback starts on this thread, so the watchdog can tell them apart. */
    int seq;

    /** Counts callbacks started on this thread, to sample one in N for timing. */
    int sampleTick;

    // Written only for sampled callbacks (timing sampled, or submit site recorded): what the watchdog
    // can say beyond the stack about the callback numbered diagnosedSeq. Plain fields, as above.
    /** The {@link #seq} of the callback the two fields below describe; -1 = none. */
    int diagnosedSeq = -1;
    /** How long that callback waited in the queue, or -1 if unknown. */
    long queuedForNanos = -1;
    /** Where it was submitted (a backtrace, decoded only for a report), or null if not recorded. */
    @Nullable Throwable submitSite;

    private CallbackFrame() {
        Watchdog.register(this);
    }

    static CallbackFrame get() {
        return FRAMES.get();
    }

    static @Nullable RendererSyncContext currentContext() {
        return FRAMES.get().context;
    }

    /** Marks a callback of {@code ctx} as started on this thread; returns what to restore. */
    @Nullable SyncContext enter(SyncContext ctx) {
        SyncContext previous = context;
        context = ctx;
        seq++;
        return previous;
    }

    /**
     * Marks a drain of {@code ctx} as running on this thread; returns what to restore. Each callback it
     * runs counts itself in {@link #seq}.
     */
    @Nullable SyncContext enterDrain(SyncContext ctx) {
        SyncContext previous = context;
        context = ctx;
        return previous;
    }

    /** Leaves the callback or drain entered with {@link #enter} or {@link #enterDrain}. */
    void leave(@Nullable SyncContext outer) {
        context = outer;
    }

    /** The callback now starting (numbered {@link #seq}) waited {@code nanos} in the queue. */
    void noteQueueWait(long nanos) {
        if (diagnosedSeq != seq) {
            submitSite = null;
        }
        queuedForNanos = nanos;
        diagnosedSeq = seq;
    }

    /** The callback now starting was submitted at {@code site} and waited {@code nanos} in the queue. */
    void noteSubmitted(Throwable site, long nanos) {
        submitSite = site;
        queuedForNanos = nanos;
        diagnosedSeq = seq;
    }

    /** The callback submitted at {@code site} returned: let go of its stack (it holds the submitter's classes). */
    void forgetSubmitted(Throwable site) {
        if (submitSite == site) {
            submitSite = null;
        }
    }

    /** Whether the callback now starting should be timed, for a sampling mask (-1 = never). */
    boolean sampleNext(int samplingMask) {
        return samplingMask >= 0 && (sampleTick++ & samplingMask) == 0;
    }
}
