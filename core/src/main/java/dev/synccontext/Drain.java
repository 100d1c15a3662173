package dev.synccontext;

import static dev.synccontext.SyncContext.ABORTED;
import static dev.synccontext.SyncContext.COUNT_MASK;

import java.util.concurrent.RejectedExecutionException;
import org.jspecify.annotations.Nullable;

/**
 * The owner's loop over a context's queue: the drain the executor runs, and the one a caller thread
 * runs to fail the queue when the executor refused a drain. Both run only while the thread owns the
 * context; each step that moves the state word (giving ownership up, yielding after a batch, handing
 * the context to a sender) is {@link SyncContext}'s, called from here, and the loop's own writes are the
 * owner token and the progress count, which the owner alone writes.
 *
 * <h2>Stepping back from a producer</h2>
 * A drain that catches up with a producer (fewer than {@value #TAILING_RUN} callbacks waiting, the next
 * slot not written yet) would follow right behind it, and the state word's and the slots' cache lines
 * would move between two CPUs with every post. On the default executor it steps back instead
 * ({@link ElasticExecutor#stepBack}: a bounded spin that writes nothing shared, skipped while other tasks
 * are queued), so that its next run is a batch. No transition changes. It steps back again only after
 * {@value #TAILING_RUN} more callbacks, so a slow producer costs at most one step back per drain.
 */
final class Drain {

    /**
     * Fewer callbacks than this waiting, after a drain has run some, means it is right behind a producer
     * (see "Stepping back from a producer" above); also how many it must run before it steps back again.
     */
    static final int TAILING_RUN = 8;

    /**
     * How many finished callbacks a drain that goes on in place after its batches
     * ({@link ElasticDrainHints#continueAfterBatch}) keeps in the count before it gives them back: it never gives
     * the context up meanwhile, and the count has 28 bits. Far above any batch, so that giving back is
     * rare; far below the count's limit, so that the queue keeps its room.
     */
    static final int CARRY_LIMIT = 1 << 20;

    /** {@link #runOrGive}'s answer when another thread owns the context now. */
    private static final int GIVEN = -1;

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
     * claimed, and closeNow() claims every slot it may return.
     *
     * <p>Each look at the state has one of four outcomes: <em>leave</em> (nothing waits, or closeNow()
     * began), <em>yield</em> after a full batch (give the context up with {@code SCHEDULED} and resubmit
     * the drain), <em>step back</em> from a producer right ahead ("Stepping back from a producer"
     * above), or <em>run a counted batch</em>. A batch ends where its budget does, unless the pool would
     * run the resubmitted drain next on this thread anyway ({@link ElasticDrainHints#continueAfterBatch}: no other
     * task waits): then the next batch begins in place, still without a look at the state, and what it
     * finished is given back every {@value #CARRY_LIMIT} callbacks, or as it leaves.
     *
     * <p>It runs the callbacks with the context's class loader as the thread's context class loader
     * ({@link ContextSettings#classLoader}, set once per drain, not per callback, and only when the
     * thread's differs) and puts the thread's own back as it leaves: an idle thread keeps no application's
     * loader.
     */
    static void run(SyncContext ctx) {
        Thread self = Thread.currentThread();
        CallbackFrame frame = CallbackFrame.get();
        SyncContext outer = frame.enterDrain(ctx);
        ctx.takeToken(self);
        ClassLoader threadLoader = self.getContextClassLoader();
        ClassLoader contextLoader = ctx.settings.classLoader;
        if (threadLoader != contextLoader) {
            setContextClassLoader(self, contextLoader);
        }
        try {
            drain(ctx, self, frame);
        } finally {
            frame.leave(outer);
            if (self.getContextClassLoader() != threadLoader) {
                setContextClassLoader(self, threadLoader);
            }
        }
    }

    /**
     * The loop of {@link #run}. Its state stays in locals (an object per drain would allocate on the post
     * paths); each step that moves the state word or the owner's fields is a {@link SyncContext} method.
     */
    private static void drain(SyncContext ctx, Thread self, CallbackFrame frame) {
        ContextSettings settings = ctx.settings;
        SyncContextObserver observer = settings.observer;
        ElasticDrainHints pool = settings.drainHints;
        int maxBatch = settings.maxBatch;
        int budget = maxBatch; // callbacks this batch may still take
        int done = 0; // callbacks finished here and still in the count
        int sinceStepBack = TAILING_RUN - 1; // callbacks taken since the last step back: one more allows it
        for (;;) {
            long s = ctx.stateVolatile();
            int waiting = (int) (s & COUNT_MASK) - done;
            if ((s & ABORTED) != 0 || waiting == 0) { // leave
                if (ctx.giveUp(s, done, self)) {
                    return;
                }
            } else if (budget == 0) { // yield
                if (ctx.giveToExecutor(s, done, self)) {
                    if (ctx.resubmitOrTakeBack(self)) {
                        return;
                    }
                    done = 0;
                    budget = maxBatch;
                }
            } else if (stepsBack(pool, waiting, sinceStepBack)) {
                sinceStepBack = 0;
            } else { // run a counted batch, then the slots written behind it
                int counted = Math.min(waiting, budget) - 1; // counted slots left after the first
                Object item = ctx.takeNext();
                while (item != QueueChunk.TAKEN) { // TAKEN: closeNow() claimed it; the next look leaves
                    budget--;
                    sinceStepBack++;
                    done = runOrGive(ctx, item, done, frame, observer);
                    if (done == GIVEN) {
                        return;
                    }
                    ctx.setProgress(done);
                    if (counted > 0) {
                        counted--;
                        item = ctx.takeNext();
                    } else {
                        if (budget == 0 && pool != null && pool.continueAfterBatch(ctx)) {
                            budget = maxBatch; // a new batch, in place
                            done = done >= CARRY_LIMIT ? ctx.giveBackFinished(done) : done;
                        }
                        if (budget == 0 || (item = ctx.takeIfWritten()) == null) {
                            break;
                        }
                    }
                }
            }
        }
    }

    /**
     * Runs a callback the drain claimed, unless another thread takes the context for it: a sender, or a
     * caller spinning in a wait for its call. Returns the finished callbacks still counted after it, or
     * {@link #GIVEN} if the context is that thread's now (its callback still counted).
     */
    private static int runOrGive(SyncContext ctx, Object item, int done, CallbackFrame frame,
            @Nullable SyncContextObserver observer) {
        if (item instanceof QueuedSend send) {
            // Withdrawn: the callbacks before it were given back first, and the send counts as finished.
            return ctx.giveToSender(send, done, Thread.currentThread()) ? GIVEN : 1;
        }
        if (item instanceof QueuedFuture<?> call && ctx.giveTakenCallToWaiter(call, done)) {
            return GIVEN;
        }
        CallbackRunner.runQueued(ctx, item, frame, observer);
        return done + 1;
    }

    /**
     * Sets {@code thread}'s context class loader, unless the thread refuses (a JDK innocuous thread, as
     * the common pool's are under a security manager): then it keeps its own, and the drain still runs.
     */
    private static void setContextClassLoader(Thread thread, @Nullable ClassLoader loader) {
        try {
            thread.setContextClassLoader(loader);
        } catch (SecurityException refused) {
            // The callbacks run with the thread's own loader, as they did before contexts set one.
        }
    }

    /**
     * Whether the drain caught up with a producer and stepped back ("Stepping back from
     * a producer"): few callbacks waiting, {@value #TAILING_RUN} run since it last stepped back,
     * and a pool that spins (only the default executor's does).
     */
    private static boolean stepsBack(@Nullable ElasticDrainHints pool, int waiting, int sinceStepBack) {
        return waiting < TAILING_RUN && sinceStepBack >= TAILING_RUN && pool != null && pool.stepBack();
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
        ctx.takeToken(self);
        int failed = 0;
        try {
            for (;;) {
                long s = ctx.stateVolatile();
                if ((s & ABORTED) != 0 || (s & COUNT_MASK) == failed) {
                    if (ctx.giveUp(s, failed, self)) {
                        return;
                    }
                } else {
                    Object item = ctx.takeNext();
                    if (item != QueueChunk.TAKEN) { // TAKEN: closeNow() aborted it; the next look leaves
                        CallbackRunner.rejectQueued(ctx, item, Refusals.drainRefused(ctx.name, cause));
                        failed++;
                        ctx.setProgress(failed); // so that closeNow() from the handler counts what is left
                    }
                }
            }
        } finally {
            frame.leave(outer);
        }
    }
}
