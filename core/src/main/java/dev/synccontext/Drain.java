package dev.synccontext;

import static dev.synccontext.SyncContext.ABORTED;
import static dev.synccontext.SyncContext.COUNT_MASK;
import static dev.synccontext.SyncContext.TAILING_RUN;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.RejectedExecutionException;
import org.jspecify.annotations.Nullable;

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

    private Drain() {
    }

    /**
     * Runs the queue as its owner. It reads the state once per run of the nodes it counted there (at
     * most {@code maxBatch}), and takes those nodes with a local cursor, publishing its position before
     * it reads the state again; a node already linked behind the last one it took is taken without that
     * read (it was reserved before it was linked), within the same {@code maxBatch}. So while producers
     * keep changing the state, a run of callbacks does not touch the context's fields but for the
     * progress count, and a drain running its own callbacks' posts ({@code PostSerial}) does not read the
     * state between them. Nor does it read the settings field per callback: it shares the line every
     * post writes, so the observer and {@code maxBatch} are read once per drain (see
     * {@link CallbackRunner#runQueued}). Whether closeNow() began needs no look per callback: each node
     * is claimed, and closeNow() claims every node it may return. Right behind a producer it steps back
     * ({@link SyncContext}, "Stepping back from a producer") before it reads the state again.
     *
     * <p>The loop's state stays in locals (not an object, not fields: the fields share lines with the
     * producers, and an object per drain would allocate on the post paths); each step that moves the
     * state word is a method of its own.
     */
    static void run(SyncContext ctx) {
        Thread self = Thread.currentThread();
        CallbackFrame frame = CallbackFrame.get();
        SyncContext outer = frame.enterDrain(ctx);
        OWNER.setOpaque(ctx, self);
        SyncContextObserver observer = ctx.settings.observer;
        int maxBatch = ctx.settings.maxBatch;
        int budget = maxBatch; // nodes this batch may still take
        int done = 0; // callbacks finished here and still in the count
        QueuedCallback<?> cursor = ctx.lastTaken();
        int counted = 0; // nodes counted in the last state read and not yet taken
        boolean ran = false; // whether the last node taken was claimed here (not aborted by closeNow())
        int sinceStepBack = TAILING_RUN; // nodes taken since this drain last stepped back
        try {
            for (;;) {
                if (counted == 0 && ran && budget > 0 && linkedAfter(cursor)) {
                    // A linked node was reserved before it was linked, so the count already holds it: take
                    // it without a look at the state word, which producers keep writing. The run grows by
                    // one, still within maxBatch (closeNow()'s walk copes with a head one run stale).
                    counted = 1;
                }
                if (counted == 0) {
                    ctx.publishTaken(cursor);
                    int s = ctx.stateVolatile();
                    if ((s & ABORTED) != 0 || (s & COUNT_MASK) == done) {
                        if (ctx.abortOrRelease(s, done, self)) {
                            return;
                        }
                        // It may have dropped the dummy, and a producer published a new head.
                        cursor = ctx.lastTaken();
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
                    // The count is what this drain finished plus what is queued: nodes it may take now.
                    int waiting = (s & COUNT_MASK) - done;
                    if (rightBehindProducer(waiting, ran, sinceStepBack) && stepBack(ctx)) {
                        // It got ahead meanwhile, so look again (the next run is a batch, taken by
                        // following links, or after one more read of the state).
                        sinceStepBack = 0;
                        continue;
                    }
                    counted = Math.min(waiting, budget);
                }
                QueuedCallback<?> node = ctx.takeAfter(cursor);
                cursor = node;
                counted--;
                sinceStepBack++;
                budget--;
                Object callback = node.claim();
                if (callback == null) {
                    ran = false;
                    counted = 0; // closeNow() (or its producer, racing it) aborted it: the next check leaves
                    continue;
                }
                ran = true;
                if (node instanceof QueuedSend send) {
                    ctx.publishTaken(cursor);
                    counted = 0;
                    if (ctx.handOffToSender(send, done, self)) {
                        return; // the sender owns the context now, its own callback still counted
                    }
                    done = 0; // given back before the offer; the withdrawn send counts as done below
                } else {
                    CallbackRunner.runQueued(ctx, node, callback, frame, observer);
                }
                done++;
                PROGRESS.setOpaque(ctx, done);
            }
        } finally {
            frame.leave(outer);
        }
    }

    /** Whether a node is already linked after the one the drain took last. */
    private static boolean linkedAfter(@Nullable QueuedCallback<?> cursor) {
        return cursor != null && cursor.nextAcquire() != null;
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
        return pool != null && pool.stepBack();
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
                int s = ctx.stateVolatile();
                if ((s & ABORTED) != 0 || (s & COUNT_MASK) == failed) {
                    if (ctx.abortOrRelease(s, failed, self)) {
                        return;
                    }
                    continue; // the state moved meanwhile
                }
                QueuedCallback<?> node = ctx.poll();
                Object callback = node.claim();
                if (callback == null) {
                    continue; // closeNow() (or the producer, racing it) aborted it: the next check leaves
                }
                CallbackRunner.rejectQueued(ctx, node, callback, Refusals.drainRefused(ctx.name, cause));
                failed++;
                PROGRESS.setOpaque(ctx, failed); // so that closeNow() from the handler counts what is left
            }
        } finally {
            frame.leave(outer);
        }
    }
}
