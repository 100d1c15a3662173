package dev.synccontext.scenario;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;

/**
 * The {@code baseline} mode: a faithful Java port of the design that Blazor's 2023 rework of
 * {@code RendererSynchronizationContext} replaced, kept to show what that rework (and ours) buys.
 * It keeps the {@link RendererSyncContext} contract: it is slow, not wrong.
 *
 * <h2>Guarantees</h2>
 * The contract's: callbacks run one at a time in FIFO order, each happens-before the next (the tail
 * future's completion orders them); an idle {@code invokeAsync} or {@code send} runs inline on the
 * caller's thread; a nested call runs now; {@code post} never runs inline; exceptions go into the
 * returned future (posts: to the unhandled-exception handler, {@code send}: rethrown); a caller's
 * thread runs only its own callback; {@code close}, {@code awaitTermination}, {@code closeNow},
 * {@code maxQueueDepth} and {@code checkAccess()} (an owner token, not a thread-local) behave as
 * specified.
 *
 * <h2>How it works (the old design)</h2>
 * <ul>
 *   <li>A lock guards one <em>tail</em> future: the completion of the last accepted work.</li>
 *   <li>{@code invokeAsync*} allocate a separate placeholder future per call. Under the lock: if the
 *       tail is complete, a fresh completion future becomes the tail and the callback runs inline
 *       (the old {@code ExecuteSynchronouslyIfPossible}); otherwise the item is chained onto the tail
 *       with {@code handleAsync(item, executor)}, the Java form of {@code ContinueWith}: one hop
 *       through the executor per queued item, each item its own task.</li>
 *   <li>{@code post} always chains (the old {@code forceAsync}); {@code send} swaps in its own
 *       completion as the tail and blocks on the previous one.</li>
 *   <li>Each item sets and afterwards restores the thread's current context (a thread-local, as the
 *       old design set {@code SynchronizationContext.Current}) and the owner token.</li>
 * </ul>
 *
 * <h2>Limits (honest)</h2>
 * <ul>
 *   <li>{@link RendererSyncContext#current()} stays empty inside its callbacks: that static is backed
 *       by the real implementation's per-thread frame, which another package cannot set. Use
 *       {@link #currentBaseline()}, which plays the same role for this class.</li>
 *   <li>No watchdog ({@link #blockedCallbackCount()} is always 0), no deadlock guard on
 *       {@code join()} from inside, no {@code maxBatch} (every item is its own executor task, which
 *       is fair by construction), no observer or callback decorator. It assumes an executor that
 *       does not refuse work.</li>
 *   <li>Not ported: .NET's {@code ExecutionContext.Capture()} per queued item.</li>
 * </ul>
 */
public final class BaselineSyncContext implements RendererSyncContext {

    private static final System.Logger LOG = System.getLogger(BaselineSyncContext.class.getName());
    private static final ThreadLocal<BaselineSyncContext> CURRENT = new ThreadLocal<>();
    private static final AtomicInteger NEXT_ID = new AtomicInteger();

    private final String name;
    private final Executor executor;
    private final int maxQueueDepth;
    private final @Nullable BiConsumer<RendererSyncContext, Throwable> unhandledExceptionHandler;
    private final Object lock = new Object();
    private final AtomicLong unhandled = new AtomicLong();
    private final CompletableFuture<Void> terminated = new CompletableFuture<>();

    /** Completes when every accepted item so far has finished. */
    @GuardedBy("lock")
    private CompletableFuture<?> tail = CompletableFuture.completedFuture(null);
    /** Queued items that have not started, in order. */
    @GuardedBy("lock")
    private final ArrayDeque<BaselineItem> pending = new ArrayDeque<>();
    private volatile boolean closed;
    private volatile @Nullable Thread owner;

    /** A baseline context named {@code baseline-N} that hops through {@link ForkJoinPool#commonPool()}. */
    public BaselineSyncContext() {
        this("baseline-" + NEXT_ID.incrementAndGet(), ForkJoinPool.commonPool());
    }

    /** An unbounded baseline context whose post failures are logged at ERROR and counted. */
    public BaselineSyncContext(String name, Executor executor) {
        this(name, executor, 0, null);
    }

    /**
     * @param maxQueueDepth maximum items waiting (not counting the one running); 0 for unbounded
     * @param unhandledExceptionHandler receives failures of posted callbacks, inside the context;
     *     null to log them at ERROR
     */
    public BaselineSyncContext(String name, Executor executor, int maxQueueDepth,
            @Nullable BiConsumer<RendererSyncContext, Throwable> unhandledExceptionHandler) {
        this.name = Objects.requireNonNull(name, "name");
        this.executor = hopTarget(Objects.requireNonNull(executor, "executor"));
        if (maxQueueDepth < 0) {
            throw new IllegalArgumentException("maxQueueDepth must be 0 (unbounded) or positive, was " + maxQueueDepth);
        }
        this.maxQueueDepth = maxQueueDepth;
        this.unhandledExceptionHandler = unhandledExceptionHandler;
    }

    /** The baseline context whose callback runs on this thread, the innermost one; empty outside. */
    public static Optional<BaselineSyncContext> currentBaseline() {
        return Optional.ofNullable(CURRENT.get());
    }

    // ---------------------------------------------------------------- invokeAsync*

    @Override
    public CompletableFuture<Void> invokeAsync(Runnable callback) {
        Objects.requireNonNull(callback, "callback");
        return invoke(BaselineItem.RUNNABLE, callback);
    }

    @Override
    public <T> CompletableFuture<T> invokeAsync(Callable<T> callback) {
        Objects.requireNonNull(callback, "callback");
        return invoke(BaselineItem.CALLABLE, callback);
    }

    @Override
    public <T> CompletableFuture<T> invokeAsyncStage(Callable<? extends CompletionStage<T>> callback) {
        Objects.requireNonNull(callback, "callback");
        return invoke(BaselineItem.STAGE, callback);
    }

    @SuppressWarnings("unchecked")
    private <T> CompletableFuture<T> invoke(int kind, Object callback) {
        CompletableFuture<Object> placeholder = new CompletableFuture<>();
        BaselineItem item = new BaselineItem(this, kind, callback, placeholder);
        if (checkAccess()) {
            item.runCallback(); // nested: a plain call, as the old Dispatcher did after CheckAccess()
            return (CompletableFuture<T>) placeholder;
        }
        CompletableFuture<Void> completion;
        synchronized (lock) {
            String refusal = refusal();
            if (refusal != null) {
                placeholder.completeExceptionally(new RejectedExecutionException(refusal));
                return (CompletableFuture<T>) placeholder;
            }
            if (!tail.isDone()) {
                enqueueLocked(item);
                return (CompletableFuture<T>) placeholder;
            }
            completion = new CompletableFuture<>();
            tail = completion;
        }
        runInline(item, completion);
        return (CompletableFuture<T>) placeholder;
    }

    // ---------------------------------------------------------------- post / execute / send

    @Override
    public void post(Runnable callback) {
        Objects.requireNonNull(callback, "callback");
        BaselineItem item = new BaselineItem(this, BaselineItem.POST, callback, null);
        synchronized (lock) {
            String refusal = refusal();
            if (refusal != null) {
                throw new RejectedExecutionException(refusal);
            }
            enqueueLocked(item);
        }
    }

    @Override
    public void execute(Runnable callback) {
        post(callback);
    }

    @Override
    public void send(Runnable callback) {
        Objects.requireNonNull(callback, "callback");
        BaselineItem item = new BaselineItem(this, BaselineItem.SEND, callback, null);
        if (checkAccess()) {
            rethrow(item.runCallback());
            return;
        }
        CompletableFuture<Void> completion = new CompletableFuture<>();
        CompletableFuture<?> antecedent;
        synchronized (lock) {
            String refusal = refusal();
            if (refusal != null) {
                throw new RejectedExecutionException(refusal);
            }
            antecedent = tail;
            tail = completion;
            if (!antecedent.isDone()) {
                pending.addLast(item);
            }
        }
        if (!antecedent.isDone() || pendingContains(item)) {
            try {
                antecedent.get();
            } catch (InterruptedException interrupted) {
                // Withdraw, but keep the chain: our turn passes to the next item when it comes.
                antecedent.whenComplete((v, e) -> {
                    start(item);
                    completion.complete(null);
                });
                Thread.currentThread().interrupt();
                throw new CancellationException("send to context '" + name + "' was interrupted while"
                        + " waiting for its turn; the callback did not run");
            } catch (ExecutionException impossible) {
                // Items never complete the chain exceptionally; fall through and take the turn.
            }
            if (!start(item)) {
                completion.complete(null);
                throw new RejectedExecutionException("send to context '" + name + "' did not run: the context"
                        + " was closed with closeNow() before its turn");
            }
        }
        rethrow(runInline(item, completion));
    }

    private boolean pendingContains(BaselineItem item) {
        synchronized (lock) {
            return pending.contains(item);
        }
    }

    private static void rethrow(@Nullable Throwable failure) {
        if (failure == null) {
            return;
        }
        if (failure instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (failure instanceof Error error) {
            throw error;
        }
        throw new CompletionException(failure);
    }

    // ---------------------------------------------------------------- running items

    /**
     * The executor the hops really go to. {@code CompletableFuture.handleAsync(fn, executor)} silently
     * swaps {@link ForkJoinPool#commonPool()} for a new thread per task when the common pool's
     * parallelism is below 2 (any machine with 2 CPUs or fewer), which made each baseline hop a thread
     * start: {@code ManyContexts} took ~20 s per invocation on a 2-CPU VM instead of milliseconds, and
     * overran the endpoint's {@code max-duration} by that much. A wrapper is not the common pool by
     * identity, so the hop goes to the pool the caller named.
     */
    private static Executor hopTarget(Executor executor) {
        if (executor == ForkJoinPool.commonPool()) {
            ForkJoinPool common = ForkJoinPool.commonPool();
            return common::execute;
        }
        return executor;
    }

    /** Chains {@code item} onto the tail: its own hop through the executor. */
    @GuardedBy("lock")
    private void enqueueLocked(BaselineItem item) {
        pending.addLast(item);
        tail = tail.handleAsync(item, executor);
    }

    /** Runs an item that claimed the idle context (or whose send turn came), then completes the tail. */
    private @Nullable Throwable runInline(BaselineItem item, CompletableFuture<Void> completion) {
        try {
            return runAsOwner(item);
        } finally {
            completion.complete(null); // queued items behind us continue on the executor, not here
        }
    }

    /** Sets the owner token and the current context, runs the item, restores both. */
    @Nullable Throwable runAsOwner(BaselineItem item) {
        BaselineSyncContext outer = CURRENT.get();
        CURRENT.set(this);
        owner = Thread.currentThread();
        try {
            return item.runCallback();
        } finally {
            owner = null;
            CURRENT.set(outer);
        }
    }

    /** Takes a queued item off the pending list as its turn comes; false if closeNow() took it. */
    boolean start(BaselineItem item) {
        synchronized (lock) {
            if (item.aborted) {
                return false;
            }
            pending.remove(item); // the head, except for a withdrawn send
            return true;
        }
    }

    void reportUnhandled(Throwable failure) {
        unhandled.incrementAndGet();
        try {
            if (unhandledExceptionHandler != null) {
                unhandledExceptionHandler.accept(this, failure);
            } else {
                LOG.log(System.Logger.Level.ERROR, "Unhandled exception in a callback posted to context '"
                        + name + "'", failure);
            }
        } catch (Throwable handlerFailure) {
            LOG.log(System.Logger.Level.ERROR, "The unhandled-exception handler of context '" + name
                    + "' threw; the queue goes on. The original failure was: " + failure, handlerFailure);
        }
    }

    /** Why new work is refused now, or null. */
    @GuardedBy("lock")
    private @Nullable String refusal() {
        if (closed) {
            return "Context '" + name + "' is closed and accepts no new callbacks";
        }
        if (maxQueueDepth > 0 && !tail.isDone() && pending.size() >= maxQueueDepth) {
            return "Context '" + name + "' is full: " + maxQueueDepth
                    + " callbacks are already waiting (maxQueueDepth = " + maxQueueDepth + ")";
        }
        return null;
    }

    // ---------------------------------------------------------------- close

    @Override
    public void close() {
        CompletableFuture<?> last;
        synchronized (lock) {
            closed = true;
            last = tail;
        }
        last.whenComplete((v, e) -> terminated.complete(null));
    }

    @Override
    public List<Runnable> closeNow() {
        List<BaselineItem> taken;
        CompletableFuture<?> last;
        synchronized (lock) {
            closed = true;
            taken = new ArrayList<>(pending);
            pending.clear();
            for (BaselineItem item : taken) {
                item.aborted = true;
            }
            last = tail;
        }
        last.whenComplete((v, e) -> terminated.complete(null));
        List<Runnable> posts = new ArrayList<>();
        for (BaselineItem item : taken) {
            Runnable post = item.abort(name);
            if (post != null) {
                posts.add(post);
            }
        }
        if (!checkAccess()) {
            terminated.join(); // a callback running elsewhere is never interrupted: wait for it
        }
        return posts;
    }

    @Override
    public boolean awaitTermination(Duration timeout) throws InterruptedException {
        Objects.requireNonNull(timeout, "timeout");
        if (terminated.isDone()) {
            return true;
        }
        if (checkAccess()) {
            throw new IllegalStateException("awaitTermination called from a callback of context '" + name
                    + "' would wait for that very callback to finish; call it from outside the context");
        }
        try {
            terminated.get(Math.max(0, timeout.toNanos()), TimeUnit.NANOSECONDS);
            return true;
        } catch (TimeoutException notYet) {
            return false;
        } catch (ExecutionException impossible) {
            throw new IllegalStateException(impossible);
        } catch (ArithmeticException tooLong) {
            terminated.join();
            return true;
        }
    }

    // ---------------------------------------------------------------- queries

    @Override
    public String name() {
        return name;
    }

    @Override
    public boolean checkAccess() {
        return owner == Thread.currentThread();
    }

    @Override
    public void assertAccess() {
        if (!checkAccess()) {
            throw new IllegalStateException("The current thread '" + Thread.currentThread().getName()
                    + "' is not running a callback of context '" + name + "'. State owned by the context"
                    + " may only be touched from inside it: use invokeAsync(...) (or post/send) to get there.");
        }
    }

    @Override
    public int queueDepth() {
        synchronized (lock) {
            return pending.size();
        }
    }

    @Override
    public long unhandledExceptionCount() {
        return unhandled.get();
    }

    /** Always 0: the baseline has no watchdog. */
    @Override
    public long blockedCallbackCount() {
        return 0;
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public String toString() {
        return "BaselineSyncContext[" + name + ", queueDepth=" + queueDepth() + (closed ? ", closed" : "") + "]";
    }
}
