package dev.synccontext;

import static dev.synccontext.SyncContext.ABORTED;
import static dev.synccontext.SyncContext.COUNT_MASK;
import static dev.synccontext.SyncContext.TAILING_RUN;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.RejectedExecutionException;

/**
 * The owner's loop over a context's queue: the drain the executor runs, and the one a caller thread
 * runs to fail the queue when the executor refused a drain. Both run only while the thread owns the
 * context; each step that moves the state word (giving ownership up, yielding after a batch, handing
 * the context to a sender) is {@link SyncContext}'s, called from here, and the loop's own writes are the
 * owner token and the progress count, which the owner alone writes.
 */
final class Drain {

    private static final VarHandle OWNER;
    private static final VarHandle PROGRESS;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            OWNER = lookup.findVarHandle(OwnerSide.class, "owner", Thread.class);
            PROGRESS = lookup.findVarHandle(OwnerSide.class, "progress", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final boolean NO_STEP_BACK = Boolean.getBoolean("probe.noStepBack");

    private Drain() {
    }

    /**
     * Runs the queue as its owner. It reads the state once per run of the callbacks it counted there (at
     * most {@code maxBatch}); a slot already written at its next index is taken without that read (it was
     * reserved before it was written), within the same {@code maxBatch}. So while producers keep changing
     * the state, a run of callbacks touches only the queue's slots and the owner's own fields (a cache
     * line away from the producers'), and a drain running its own callbacks' posts ({@code PostSerial})
     * does not read the state between them. Nor does it read the settings field per callback: it shares
     * the line every post writes, so the observer and {@code maxBatch} are read once per drain (see
     * {@link CallbackRunner#runQueued}). Whether closeNow() began needs no look per callback: each slot is
     * claimed, and closeNow() claims every slot it may return. Right behind a producer it steps back
     * ({@link SyncContext}, "Stepping back from a producer") before it reads the state again.
     *
     * <p>The loop's state stays in locals (not an object, not fields: an object per drain would allocate
     * on the post paths); each step that moves the state word is a method of its own.
     */
    static void run(SyncContext ctx) {
        Thread self = Thread.currentThread();
        CallbackFrame frame = CallbackFrame.get();
        SyncContext outer = frame.enterDrain(ctx);
        OWNER.setOpaque(ctx, self);
        SyncContextObserver observer = ctx.settings.observer;
        int maxBatch = ctx.settings.maxBatch;
        int budget = maxBatch; // callbacks this batch may still take
        int done = 0; // callbacks finished here and still in the count
        int counted = 0; // callbacks counted in the last state read and not yet taken
        boolean ran = false; // whether the last one taken was claimed here (not aborted by closeNow())
        int sinceStepBack = TAILING_RUN; // callbacks taken since this drain last stepped back
        try {
            for (;;) {
                // A written slot was reserved before it was written, so the count already holds it: take it
                // without a look at the state word, which producers keep writing. The run grows by one,
                // still within maxBatch.
                Object item = counted == 0 && ran && budget > 0 ? ctx.takeIfWritten() : null;
                if (item == null) {
                    if (counted == 0) {
                        long s = ctx.stateVolatile();
                        if ((s & ABORTED) != 0 || (s & COUNT_MASK) == done) {
                            if (ctx.abortOrRelease(s, done, self)) {
                                return;
                            }
                            continue; // the state moved meanwhile
                        }
                        if (budget == 0) {
                            if (!ctx.yieldAfterBatch(s, done, self)) {
                                continue; // the state moved meanwhile
                            }
                            if (ctx.resubmitOrReclaim()) {
                                return;
                            }
                            OWNER.setOpaque(ctx, self); // the executor refused: a fresh batch, on this thread
                            done = 0;
                            budget = maxBatch;
                            continue;
                        }
                        // The count is what this drain finished plus what is queued: callbacks it may take now.
                        int waiting = (int) (s & COUNT_MASK) - done;
                        if (rightBehindProducer(waiting, ran, sinceStepBack) && stepBack(ctx)) {
                            // It got ahead meanwhile, so look again (the next run is a batch, taken by
                            // following written slots, or after one more read of the state).
                            sinceStepBack = 0;
                            continue;
                        }
                        counted = Math.min(waiting, budget);
                    }
                    item = ctx.takeNext();
                    counted--;
                }
                sinceStepBack++;
                budget--;
                if (item == QueueChunk.TAKEN) {
                    ran = false;
                    counted = 0; // closeNow() claimed it: the next check leaves
                    continue;
                }
                ran = true;
                if (item instanceof QueuedSend send) {
                    counted = 0;
                    if (ctx.handOffToSender(send, done, self)) {
                        return; // the sender owns the context now, its own callback still counted
                    }
                    done = 0; // given back before the offer; the withdrawn send counts as done below
                } else {
                    CallbackRunner.runQueued(ctx, item, frame, observer);
                }
                done++;
                PROGRESS.setOpaque(ctx, done);
            }
        } finally {
            frame.leave(outer);
        }
    }

    /**
     * Whether the drain caught up with a producer ({@link SyncContext}, "Stepping back from a
     * producer"): few callbacks waiting, the last node it took ran here, and it has run
     * {@value SyncContext#TAILING_RUN} since it last stepped back.
     */
    private static boolean rightBehindProducer(int waiting, boolean ran, int sinceStepBack) {
        return waiting < TAILING_RUN && ran && sinceStepBack >= TAILING_RUN;
    }

    /** See {@link SyncContext}, "Stepping back from a producer": only the default executor's pool spins. */
    private static boolean stepBack(SyncContext ctx) {
        DrainPool pool = ctx.settings.drainPool;
        return !NO_STEP_BACK && pool != null && pool.stepBack();
    }

    /**
     * The executor refused a drain that a caller thread tried to schedule. That thread may not run
     * other callers' callbacks, so it fails them instead, loudly: futures and senders with a
     * {@link RejectedExecutionException}, posts through the unhandled-exception handler. The context
     * stays open; the next submission tries the executor again. Called by that thread once it took
     * the refused drain's ownership over.
     */
    static void failQueued(SyncContext ctx, Throwable cause) {
        // This thread owns the context now, so the handler and observer run inside it, as in a drain.
        // Without the token, a handler that calls closeNow() would wait for the owner: for itself.
        Thread self = Thread.currentThread();
        CallbackFrame frame = CallbackFrame.get();
        SyncContext outer = frame.enterDrain(ctx);
        OWNER.setOpaque(ctx, self);
        int failed = 0;
        try {
            for (;;) {
                long s = ctx.stateVolatile();
                if ((s & ABORTED) != 0 || (s & COUNT_MASK) == failed) {
                    if (ctx.abortOrRelease(s, failed, self)) {
                        return;
                    }
                    continue; // the state moved meanwhile
                }
                Object item = ctx.takeNext();
                if (item == QueueChunk.TAKEN) {
                    continue; // closeNow() aborted it: the next check leaves
                }
                CallbackRunner.rejectQueued(ctx, item, Refusals.drainRefused(ctx.name, cause));
                failed++;
                PROGRESS.setOpaque(ctx, failed); // so that closeNow() from the handler counts what is left
            }
        } finally {
            frame.leave(outer);
        }
    }
}
