package dev.synccontext;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;

/**
 * A serialized execution context that owns no thread: the callbacks given to it run <b>one at a
 * time, in order</b>, so the state they touch (a component tree, a per-session model, an outbound
 * stream) needs no locks. It is the JVM counterpart of ASP.NET Core Blazor's
 * {@code RendererSynchronizationContext}.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>Mutual exclusion.</b> At most one callback of a context runs at any moment, except a
 *       <em>nested</em> call: a callback that calls this context again runs the inner callback right
 *       away, on its own thread, as an ordinary method call.</li>
 *   <li><b>Order and visibility.</b> Queued callbacks run in the order they were accepted (FIFO), one
 *       after another; each one happens-before the next. Only the nested path jumps the queue.</li>
 *   <li><b>No thread of its own.</b> When the context is idle, {@link #invokeAsync(Runnable)} and
 *       {@link #send(Runnable)} claim it and run the callback inline on the caller's thread. Queued
 *       work is drained by one task at a time on the {@linkplain Builder#executor executor}; a drain
 *       runs at most {@linkplain Builder#maxBatch maxBatch} callbacks and then resubmits itself, so a
 *       hot context cannot pin a pool thread. A caller's thread runs only its own callback: work that
 *       queued up behind it runs on the executor, never on the releasing caller's thread. A thread
 *       blocked in {@code join()} or {@code get()} on the future of its own queued call may be handed
 *       the context when that call's turn comes while it waits (for a few microseconds it offers to),
 *       and then runs that call itself, as it would have inline: no pool thread is woken for it, and
 *       a timed {@code get} so handed runs the call to its end.</li>
 *   <li><b>Class loader.</b> A queued callback runs with the thread context class loader of the thread
 *       that made the context's {@linkplain #builder() builder} (for {@link #create()}: the caller's),
 *       whichever executor thread runs it; the drain sets it once per run of callbacks and puts the
 *       thread's own back as it ends. An inline, nested or {@code send} callback runs on its caller's
 *       thread with that thread's loader. The builder's creator rather than each submitter: a context
 *       belongs to one application, and carrying a loader per call would cost every queued call a
 *       field (a post has no node to hold it). Not the pool thread's own: the
 *       {@linkplain #defaultExecutor() default executor} is shared by every application in the JVM
 *       and its threads outlive them, so between drains they hold the library's own loader and nothing
 *       of the application that first used them.</li>
 *   <li><b>Nothing is lost.</b> Every accepted callback either runs, or its future (or the caller of
 *       {@link #send}, or the {@linkplain Builder#unhandledExceptionHandler handler} for a post)
 *       learns why not: closed, full, cancelled, or the executor refused the drain.</li>
 * </ul>
 *
 * <h2>Entry points</h2>
 * The one statement of what each call does; the repository's documents link here rather than copy it.
 * <table>
 *   <caption>What each call does, by the state of the context</caption>
 *   <tr><th>call</th><th>inside this context</th><th>idle</th><th>busy</th></tr>
 *   <tr><td>{@code invokeAsync}</td><td>runs now, nested</td>
 *       <td>runs inline on the caller's thread; the future is already complete</td>
 *       <td>queued FIFO; runs on the executor (or on the thread blocked in its {@code join}/{@code get}
 *       when its turn comes)</td></tr>
 *   <tr><td>{@code invokeAsyncStage}</td><td>synchronous part runs now</td>
 *       <td>synchronous part runs inline</td><td>synchronous part queued</td></tr>
 *   <tr><td>{@code post}/{@code execute}</td><td>queued (never inline)</td><td>queued, drain scheduled</td>
 *       <td>queued</td></tr>
 *   <tr><td>{@code send}</td><td>runs now, nested (where Blazor deadlocks)</td>
 *       <td>runs inline on the caller's thread</td>
 *       <td>blocks until its FIFO turn, then runs on the caller's thread</td></tr>
 * </table>
 *
 * <h2>Failures</h2>
 * {@code invokeAsync*} never throw at the caller (not even when nested, closed or full): a failure
 * goes into the returned future, and a {@link java.util.concurrent.CancellationException} thrown by
 * the callback makes the future {@linkplain CompletableFuture#isCancelled() cancelled}. {@code send}
 * rethrows the callback's exception. A failing {@code post}/{@code execute} callback goes to the
 * unhandled-exception handler (by default: logged at ERROR with the exception, and counted); a
 * handler that throws is logged and never stalls the queue. Null arguments throw
 * {@link NullPointerException} at the call.
 *
 * <h2>Deadlocks</h2>
 * A blocking wait from inside a context that could never end throws {@link ContextDeadlockException}
 * at once instead of hanging, naming every side's context, thread, site and stack: {@code join()} or
 * {@code get()} on a future this context returned for a queued callback (or on a future derived from
 * one, {@code thenApply}, {@code thenApplyAsync(…, context)}, ...), and a {@code send} waiting for its
 * turn, when the work waited for is queued behind the caller, is the caller itself, or needs a context
 * whose callback waits, through any number of contexts, on the caller's context. Waits on futures the
 * context did not hand out (a {@code CompletableFuture} completed by a posted callback, a latch) are not
 * seen.
 *
 * <h2>What it does not promise</h2>
 * An async callback ({@link #invokeAsyncStage}) holds the context only for its synchronous part; what
 * runs after its stage completes runs on the thread that completes the stage, outside the context,
 * unless it hops back (for example {@code stage.thenAcceptAsync(fn, context)}). The context is not a
 * lock across awaits. A deadlock through waits the context does not see (above) is not detected.
 *
 * <p>Instances are thread-safe. This is an interface so that Spring can inject a scoped proxy.
 */
public interface RendererSyncContext extends Executor, AutoCloseable {

    /** A context with default settings that drains on the {@linkplain #defaultExecutor() default executor}. */
    static RendererSyncContext create() {
        return builder().build();
    }

    /** A context with default settings that drains on the given executor. */
    static RendererSyncContext create(Executor executor) {
        return builder().executor(executor).build();
    }

    /**
     * A builder for a context with custom settings. It records the calling thread's context class
     * loader: the one its contexts' queued callbacks run with (see "Class loader" above).
     */
    static Builder builder() {
        return new ContextBuilder();
    }

    /**
     * The executor that contexts drain on unless the builder is given another: one pool for the JVM
     * that survives blocking callbacks. It runs as many drains at once as there are CPUs; when a drain
     * has been stuck in one task for a few milliseconds (a callback blocked in JDBC or HTTP), it stops
     * counting that thread and gives queued work another one (an idle thread, or a new daemon thread
     * named {@code synccontext-N}, up to {@code max(256, 16 × CPUs)}); idle threads retire after 60 s.
     * So one blocked context never delays the queued work of another, on a 2-CPU container as on a
     * big host.
     *
     * <p>Why not {@link ForkJoinPool#commonPool()}: it has {@code CPUs - 1} workers (a single one on
     * 2 CPUs) and a blocked callback holds one for as long as it blocks, so every other context's
     * queued work waits behind it. Pass {@code ForkJoinPool.commonPool()} to the builder when every
     * callback is CPU-only and you want no thread of this library's own. Why not a virtual thread per
     * drain: Java 17 has none, a virtual thread pinned while it blocks (inside {@code synchronized} up
     * to Java 23, in native code on every version) holds its carrier just like a pool thread, and each
     * drain would pay a new thread and a carrier wake-up. This pool hands work over cheaply instead: a
     * drain that has run {@code maxBatch} callbacks goes on in place, on the same thread, unless other
     * work waits (then it resubmits itself behind that work), and an idle worker spins a few tens of
     * microseconds before it parks, so a post to an idle context usually wakes no thread. And a drain
     * that catches up with a producer waits up to 20 µs while nothing else is queued, so that it takes
     * the producer's posts in batches rather than one at a time (a callback posted meanwhile may wait
     * that much longer).
     *
     * <p>It is a {@link dev.synccontext.ExecutorStatistics}: threads running, blocked and idle,
     * compensations and cap reached, read on demand.
     */
    static Executor defaultExecutor() {
        return ElasticExecutor.shared();
    }

    /**
     * The context whose callback runs on the current thread (the innermost one, when callbacks of
     * several contexts are nested), or empty outside any callback. Restored on every exit path.
     */
    static Optional<RendererSyncContext> current() {
        return Optional.ofNullable(CallbackFrame.currentContext());
    }

    /**
     * Callbacks that have been running longer than their context's blocked threshold right now,
     * across every context of this JVM. Each entry names its context, scope, thread and callback site
     * and carries the thread's stack as seen by the watchdog.
     */
    static List<BlockedCallback> blockedCallbacks() {
        return Watchdog.blockedNow();
    }

    /**
     * Runs {@code callback} on {@code target} and delivers its answer to the caller's context <b>in
     * order</b>: the answer is queued on the calling context from inside {@code target}'s callback, right
     * after {@code callback} returns, so it arrives before anything {@code target} sends the caller
     * afterwards (FIFO per pair of contexts, as between two Erlang processes). The hop-back recipe
     * {@code target.invokeAsync(c).thenApplyAsync(f, caller)} does not promise that: its hop may be queued
     * after {@code target} was released, behind a message that a later callback of {@code target} sent.
     *
     * <ul>
     *   <li><b>Where the answer arrives.</b> Called from a callback of context {@code S} (the
     *       {@linkplain #current() current} one), the returned future completes in a later callback of
     *       {@code S}, queued on {@code S} by {@code target}'s callback before it returns; its dependents
     *       ({@code thenAccept}, ...) attached in the calling callback run there, on {@code S}.
     *       Anything that {@code callback} itself posts to {@code S} before it returns comes before the
     *       answer; anything {@code target} posts to {@code S} after it, after.</li>
     *   <li><b>Failures and refusals reach the future</b>, on {@code S} as well: what {@code callback}
     *       throws, a {@code target} that refuses it (closed, full: its {@code RejectedExecutionException}),
     *       a {@code target} force-closed before it ran (a {@code CancellationException}). Cancelling the
     *       returned future before {@code callback} started keeps it from running.</li>
     *   <li><b>Outside any context</b> there is no caller to answer in order with: the ask is
     *       {@code target.invokeAsync(callback)}, and its future completes where that one does.</li>
     *   <li><b>On {@code target} itself</b> ({@code S == target}): it runs now, nested, as
     *       {@link #invokeAsync(Callable)} does; the future is already complete.</li>
     *   <li><b>Deadlocks fail fast.</b> A {@code join()}/{@code get()} on the returned future from inside
     *       {@code S} can never end (the answer is queued behind the waiting callback) and throws
     *       {@link ContextDeadlockException} at once, whether {@code target} has run yet or not (so does a
     *       wait on a future derived from it); a wait from another context takes part in the deadlock
     *       detection as a wait on {@code S}.</li>
     * </ul>
     * <b>The one way an answer is lost to {@code S}:</b> {@code S} itself refuses it (closed meanwhile, or
     * its {@code maxQueueDepth} is reached). {@code callback} has run then; the future fails with a
     * {@code RejectedExecutionException} naming both contexts, completed on {@code target}'s thread (not
     * on {@code S}, which no longer takes callbacks). And a known limit: {@link #closeNow()} on {@code S}
     * with the answer queued hands it back as it hands back every post, and the future is left incomplete
     * (a graceful {@link #close()} runs it).
     *
     * @return a future completed on the caller's context with {@code callback}'s value or failure
     */
    static <T> CompletableFuture<T> ask(RendererSyncContext target, Callable<T> callback) {
        return Ask.start(target, callback);
    }

    /**
     * The clock this context reads time on ({@link Builder#clock}): where code built on a context (the
     * coroutine dispatcher's {@code delay}, the Reactor scheduler's delays, a registry's idle expiry) sets
     * its timers, so a test kit's virtual time moves them too. Contexts this library builds answer their
     * builder's clock; this default, for other implementations, is {@link ContextClock#system()}.
     */
    default ContextClock clock() {
        return this instanceof SyncContext context ? context.settings.clock : ContextClock.system();
    }

    /**
     * The kind of context given to its builder ({@link Builder#scope}: {@code session}, {@code websocket}, a
     * registry's scope), the tag its metrics carry; null when none was given, or for implementations other
     * than this library's.
     */
    default @Nullable String scope() {
        return this instanceof SyncContext context ? context.settings.scope : null;
    }

    /** The name given at build time; used in every error message about this context. */
    String name();

    /**
     * Whether the current thread runs a callback of this context right now (including the
     * completion of that callback's future and the unhandled-exception handler it triggers). It is
     * based on an ownership token that the context sets and clears, so it can never leak to a thread
     * that merely ran a callback once.
     */
    boolean checkAccess();

    /**
     * Throws {@link IllegalStateException} naming this context unless {@link #checkAccess()}: use it
     * where state owned by the context is mutated, so a wrong-thread access fails loudly.
     */
    void assertAccess();

    /**
     * Runs {@code callback} in the context: now if called from inside it, inline on the caller's
     * thread if idle, otherwise queued. Never throws except for a null argument.
     *
     * @return a future completed when the callback has run; when it ran inline or nested the future
     *     is already complete (and may be a shared instance whose {@code obtrude*} methods throw).
     *     Cancelling it before a queued callback starts keeps the callback from running.
     */
    CompletableFuture<Void> invokeAsync(Runnable callback);

    /** Like {@link #invokeAsync(Runnable)}, completing the future with the callback's value. */
    <T> CompletableFuture<T> invokeAsync(Callable<T> callback);

    /**
     * Runs the synchronous part of an asynchronous callback in the context and returns a future that
     * mirrors the stage it returns (value, exception, cancellation). The context is released as soon
     * as the synchronous part returns; the future completes on the thread that completes the stage,
     * with no hop through the queue. When the synchronous part ran inline and returned a
     * {@link CompletableFuture}, that very future is returned (no copy is made).
     */
    <T> CompletableFuture<T> invokeAsyncStage(Callable<? extends CompletionStage<T>> callback);

    /**
     * Queues {@code callback}; it never runs inside this call, even when the context is idle (a drain
     * is then scheduled on the executor). A failure of the callback goes to the unhandled-exception
     * handler.
     *
     * @throws RejectedExecutionException if the context is closed or its queue is full
     */
    void post(Runnable callback);

    /** Same as {@link #post(Runnable)}, so the context can be used wherever an executor is expected. */
    @Override
    void execute(Runnable callback);

    /**
     * Runs {@code callback} in the context on the caller's thread and returns when it has run: now
     * when nested or idle, otherwise after blocking until its FIFO turn. Rethrows what the callback
     * throws.
     *
     * @throws RejectedExecutionException if the context is closed or full, or was force-closed or
     *     its drain was refused while this call waited
     * @throws java.util.concurrent.CancellationException if the waiting thread was interrupted before
     *     its turn (the callback did not run; the interrupt status is kept)
     */
    void send(Runnable callback);

    /** Callbacks accepted and not yet started (the one running is not counted). A snapshot. */
    int queueDepth();

    /**
     * How many callback failures reached the unhandled-exception handler (custom or default) since
     * the context was built.
     */
    long unhandledExceptionCount();

    /** How many callbacks of this context the watchdog has reported as blocked. */
    long blockedCallbackCount();

    /** Whether {@link #close()} or {@link #closeNow()} has been called. */
    boolean isClosed();

    /**
     * Stops accepting work and returns at once: later submissions are rejected with a
     * {@link RejectedExecutionException} naming this context (nested calls from a callback that is
     * still running keep working, as they queue nothing). Work already accepted still runs; use
     * {@link #awaitTermination(Duration)} to wait for it. Idempotent.
     */
    @Override
    void close();

    /**
     * Closes this context as {@link #close()} does, because the application is shutting down: what it accepted
     * still runs, and later submissions are refused with a {@link ContextShuttingDownException} (a
     * {@link RejectedExecutionException}) whose message names this context and says so, instead of the plain
     * "closed" refusal. The registry's shutdown drain closes its contexts this way. Idempotent; called after
     * {@link #close()}, it changes the reason later refusals give. The reason costs nothing until a callback is
     * refused. This default, for other implementations, is {@link #close()}.
     */
    default void closeForShutdown() {
        close();
    }

    /**
     * Closes this context with {@code last} as its final callback, in one step: {@code last} is queued behind
     * every callback accepted so far and runs on this context after them; everything submitted after this
     * call is refused, as after {@link #close()}. No callback can slip in between, so nothing of the context
     * runs after {@code last}: how state owned by a context is torn down on it (the registry's release hooks
     * use it). Contexts this library builds ({@link #builder()}) do it with one atomic update of their state,
     * and do not apply {@code maxQueueDepth} to {@code last}; this default, for other implementations, posts
     * then closes, which leaves a window for a submission to land after {@code last}.
     *
     * @throws RejectedExecutionException the context is closed already ({@code last} has not run)
     */
    default void closeAfter(Runnable last) {
        post(last);
        close();
    }

    /**
     * {@link #closeAfter} because the application is shutting down: {@code last} runs on this context after every
     * callback accepted so far, and later submissions are refused with a {@link ContextShuttingDownException}, as
     * after {@link #closeForShutdown()}. The registry's shutdown drain closes a context this way when a part asked
     * for a last callback there ({@code SyncContextRegistry.onShutdownDrain}). This default, for other
     * implementations, is {@link #closeAfter}.
     *
     * @throws RejectedExecutionException the context is closed already ({@code last} has not run)
     */
    default void closeForShutdownAfter(Runnable last) {
        closeAfter(last);
    }

    /**
     * Waits until the context is closed and every accepted callback has finished (after
     * {@link #closeNow()}: until the callback that was running, if any, has returned).
     *
     * @return {@code true} if terminated, {@code false} if the timeout elapsed first
     */
    boolean awaitTermination(Duration timeout) throws InterruptedException;

    /**
     * Closes the context, aborts the work that has not started, and returns at once, like
     * {@link java.util.concurrent.ExecutorService#shutdownNow()}: pending futures are cancelled,
     * waiting {@code send} callers get a {@link RejectedExecutionException}, and the pending posted
     * runnables are returned (the very instances given to {@code post}, unless a decorator wrapped
     * them). It never waits for a callback that is running on another thread and never interrupts
     * it: that callback finishes by itself, and {@link #awaitTermination(Duration)} is what waits for
     * it. No queued callback starts after this call returns, including the rest of the batch of a
     * drain that is running (only nested calls made by the running callback itself still run).
     *
     * <p>A submission that races this call either is aborted here (and returned or cancelled) or fails
     * at its own call ({@code post}/{@code send} throw {@link RejectedExecutionException}, the future of
     * {@code invokeAsync} is cancelled). Called again by code the abort itself runs (an observer, a
     * dependent of a cancelled future), it returns an empty list at once; the outer call returns the
     * posts. Concurrent calls from several threads each return the posts they aborted.
     */
    List<Runnable> closeNow();

    /**
     * Settings for a new context. Builders are not thread-safe; a built context is. Contexts that one
     * builder builds one after another share a single settings object, so a registry that keeps a
     * builder (under a lock) makes each further context cost only its own few fields.
     */
    interface Builder {

        /** A name for messages, logs and metrics. Default: {@code "synccontext-N"}. */
        Builder name(String name);

        /**
         * Where queued work is drained. Default: {@link RendererSyncContext#defaultExecutor()}, which
         * survives blocking callbacks; {@link ForkJoinPool#commonPool()} suits CPU-only callbacks.
         */
        Builder executor(Executor executor);

        /** Maximum callbacks one drain runs before resubmitting itself (fairness). Default {@value SyncContextDefaults#MAX_BATCH}. */
        Builder maxBatch(int maxBatch);

        /** Maximum callbacks waiting (not counting the one running); 0 means unbounded (default). */
        Builder maxQueueDepth(int maxQueueDepth);

        /**
         * How long a callback may run before the watchdog reports it as blocked. Default 2 s;
         * {@link Duration#ZERO} turns the report off for this context. The report comes between the
         * threshold and the threshold plus one watchdog tick (a quarter of the smallest threshold on the
         * same clock, 5-250 ms) after the callback started, measured on the context's {@link #clock}.
         */
        Builder blockedThreshold(Duration blockedThreshold);

        /**
         * Receives failures of posted callbacks (and of callbacks whose drain the executor refused).
         * It runs on the thread that ran the callback, inside the context. Default: log at ERROR
         * through {@link System.Logger} and count.
         */
        Builder unhandledExceptionHandler(BiConsumer<RendererSyncContext, Throwable> handler);

        /** Receives counts, sampled timings and diagnostics; see {@link SyncContextObserver}. */
        Builder observer(SyncContextObserver observer);

        /**
         * Wraps callbacks that are queued (never those that run on the submitter's own thread), for
         * example to carry the submitter's thread-locals over to the drain thread.
         */
        Builder queuedCallbackDecorator(CallbackDecorator decorator);

        /**
         * The kind of context this is ({@code session}, {@code stomp}, ...), named in blocked-callback
         * reports, their Flight Recorder events and deadlock reports beside the context's name. Default:
         * none. The registry sets its scope.
         */
        Builder scope(String scope);

        /**
         * About one queued callback in this many records the stack that submitted it (a power of two; 0,
         * the default, records none), shown when the watchdog reports that callback as blocked
         * ({@link BlockedCallback#submitStack()}) along with its queue wait. A recorded callback costs
         * about 1 µs at its submission (a backtrace and a wrapper; see docs/DESIGN.md, "Diagnostics"), the
         * others a random draw; with 0 nothing is wrapped at all.
         */
        Builder submitSiteSampling(int interval);

        /**
         * Where this context reads time: the watchdog's {@link #blockedThreshold blocked threshold} and
         * its scans (timers on this clock, {@link ContextClock#scheduleBackground}, unless it is the
         * system clock), and {@link RendererSyncContext#awaitTermination awaitTermination}'s timeout. Default
         * {@link ContextClock#system()}; a test kit sets a virtual one. Never read on the callback path.
         */
        Builder clock(ContextClock clock);

        /** Builds a new, open, idle context. */
        RendererSyncContext build();
    }
}
