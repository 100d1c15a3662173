package dev.synccontext;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Created on the first {@code close}, {@code closeNow} or {@code awaitTermination}, so an open context
 * pays one null field for it. Completes when the context is closed and its count of accepted,
 * unfinished callbacks reaches zero. Whoever brings the count there completes it; that is decided by
 * the context's state word, in {@link SyncContext}. Here: waiting for it, and {@code closeNow()}'s
 * walk over the queue ({@link Abort}).
 *
 * <h2>Force-close without waiting</h2>
 * {@code closeNow()} never waits for the owner. Every slot is claimed once, by an atomic exchange
 * ({@link QueueChunk#claim}): by the owner to run it, or by closeNow() to abort it. closeNow() sets
 * {@code ABORTED} with one atomic or that also reads the sequence, claims every slot below it
 * ({@link CallbackQueue#visitQueued}, with {@link Abort}) and counts them off. After it returns, nothing
 * starts but the callback the owner had already claimed; whoever brings the count to zero completes the
 * termination.
 */
final class Termination {

    private static final VarHandle TERMINATION =
            FieldHandles.find(MethodHandles.lookup(), ContextState.class, "termination", Termination.class);

    final CompletableFuture<Void> terminated = new CompletableFuture<>();

    /**
     * The thread aborting the queue right now, or null. Only compared with the current thread, which
     * can see its own reference here only while it aborts (as with the context's owner token).
     */
    private @Nullable Thread aborting;

    /**
     * The context was closed because the application is shutting down ({@code closeForShutdown()}): set once,
     * before the state says closed, so a refusal that finds the context closed by that call reads it; read
     * only by refusals ({@link Refusals#closed}).
     */
    private volatile boolean shuttingDown;

    private Termination() {
    }

    /** Marks the close as the application's shutdown; call before the state says closed. */
    void shuttingDownRelease() {
        shuttingDown = true;
    }

    boolean shuttingDownAcquire() {
        return shuttingDown;
    }

    /** The context's termination, created by the first thread that asks; every thread gets the same. */
    static Termination of(ContextState ctx) {
        Termination t = (Termination) TERMINATION.getAcquire(ctx);
        if (t != null) {
            return t;
        }
        Termination created = new Termination();
        Termination witness = (Termination) TERMINATION.compareAndExchange(ctx, null, created);
        return witness == null ? created : witness;
    }

    /** Whether {@code thread} (the current one) is inside {@link #abortQueued} already. */
    boolean abortingOn(Thread thread) {
        return aborting == thread;
    }

    /**
     * closeNow()'s walk over the queue of {@code ctx}, already marked force-closed: aborts every node no
     * one else claimed. Code the abort runs (an observer, a cancelled future's dependent) that calls
     * closeNow() again finds {@link #abortingOn} true.
     *
     * @param end the sequence closeNow() found: every index below it is reserved and will be written
     * @return what it aborted: the count to subtract, and the posts
     */
    Abort abortQueued(SyncContext ctx, int end) {
        Abort abort = new Abort(ctx);
        aborting = Thread.currentThread();
        try {
            ctx.visitQueued(end, abort);
        } finally {
            aborting = null;
        }
        return abort;
    }

    /** {@code awaitTermination} of {@code ctx}, after the null check. */
    boolean await(SyncContext ctx, Duration timeout) throws InterruptedException {
        if (terminated.isDone()) {
            return true;
        }
        if (ctx.checkAccess()) {
            throw new IllegalStateException("awaitTermination called from a callback of context '" + ctx.name
                    + "' would wait for that very callback to finish; call it from outside the context");
        }
        return ctx.settings.clock.await(terminated, SystemClock.saturatedNanos(timeout));
    }

    /**
     * {@code closeNow()}'s visitor: aborts each callback the walk claimed; keeps the posts and
     * counts what it aborted, for the context to subtract from its count.
     */
    static final class Abort implements Consumer<Object> {

        private final SyncContext ctx;
        final List<Runnable> posts = new ArrayList<>();
        int count;

        Abort(SyncContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public void accept(Object claimed) {
            count++;
            Runnable post = CallbackRunner.abortQueued(claimed, Refusals.closedNowBeforeStart(ctx.name));
            if (post != null) {
                posts.add(post);
            }
            CallbackRunner.observe(ctx, CallbackRunner.pathOf(claimed), CallbackOutcome.CANCELLED);
        }
    }
}
