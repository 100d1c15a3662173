package dev.synccontext.registry;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.synccontext.RendererSyncContext;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * The registry's paced broadcasts ({@link SyncContextRegistry#broadcastAsync(Predicate, Runnable)}): a window of
 * posts at a time, each next window from a task queued on the registry's executor behind the drains the last
 * one started.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>Exactly once.</b> A context open from the call until its stage completes is posted the callback
 *       exactly once: the registry's sets are walked by their weakly consistent iterators, over several
 *       windows, never copied.</li>
 *   <li><b>Order.</b> Broadcasts run one at a time, in the order they were accepted: one has tried every
 *       context before the next posts to any, so each context gets them in that order.</li>
 *   <li><b>Refusals</b> are the {@link Fanout}'s: counted and logged, never thrown; the others still get it.</li>
 *   <li><b>Bounded wait for other work.</b> A task queued on a FIFO executor while a broadcast is under way
 *       waits behind at most about two windows of its drains (the rest of this one, the next one the
 *       pump's task posts), not behind all of them. A window is {@link #WINDOW} posts while broadcasts keep
 *       up; it doubles per broadcast waiting behind the one under way (up to {@code WINDOW << MAX_DOUBLINGS}).</li>
 * </ul>
 *
 * <h2>How</h2>
 * One pump at a time owns the queue's head: the caller that finds no pump running posts the first window on
 * its own thread; then the pump queues itself on the executor, so it runs again only once the executor has
 * reached it, after the drains its window started (and whatever else was queued meanwhile). An executor that
 * refuses the pump (shut down) leaves it on the thread that has it, which posts on: nothing is dropped.
 *
 * <h2>Known limits</h2>
 * The pacing is the executor's FIFO order: a context that a customizer gave another executor is posted to
 * with the others, but its drain does not wait on the registry's. {@link #WINDOW} is a guess, bounded by
 * what a click may wait (a window of drains of ~24 µs each, bench/README.md "Capacity per node"). Pacing makes a
 * broadcast's pace one window per round trip through the executor's queue: on a starved CPU (a shared machine
 * at load 25 on 2 cores) a round trip took milliseconds, and a broadcast to 10,000 contexts a second fell
 * behind until windows grew; under such overload the wait of other work grows with the window.
 */
final class PacedFanout {

    /** Posts per window: 64 drains of ~24 µs are ~1.5 ms of one core, what a task queued meanwhile waits. */
    static final int WINDOW = 64;
    /** A window doubles per broadcast waiting behind, at most this many times: up to 4,096 posts. */
    static final int MAX_DOUBLINGS = 6;

    private final Fanout fanout;
    private final Executor executor;
    private final Runnable pump = this::pump;
    @GuardedBy("this")
    private final Queue<Paced> waiting = new ArrayDeque<>();
    @GuardedBy("this")
    private boolean pumping;

    PacedFanout(Fanout fanout, Executor executor) {
        this.fanout = fanout;
        this.executor = executor;
    }

    /**
     * Queues a broadcast of {@code callback} to those of {@code targets} that {@code which} accepts; posts its
     * first window now when no other broadcast is under way.
     */
    CompletionStage<Broadcast> submit(Iterator<RendererSyncContext> targets,
            Predicate<? super RendererSyncContext> which, Runnable callback) {
        Paced paced = new Paced(targets, which, callback);
        synchronized (this) {
            waiting.add(paced);
            if (pumping) {
                return paced.done.minimalCompletionStage();
            }
            pumping = true;
        }
        pump();
        return paced.done.minimalCompletionStage();
    }

    /** Broadcasts queued or under way (tests, diagnostics). */
    synchronized int waiting() {
        return waiting.size();
    }

    /**
     * One window of the head broadcast, then queues itself on the executor; stops when none is left. The window
     * doubles per broadcast waiting behind the head: when the executor's round trips fall behind the caller's
     * rate (a starved CPU makes each one slow), it catches up in larger windows instead of queueing broadcasts
     * without end.
     */
    private void pump() {
        while (true) {
            Paced head;
            int window;
            synchronized (this) {
                head = waiting.peek();
                window = WINDOW << Math.min(waiting.size() - 1, MAX_DOUBLINGS);
            }
            if (head == null) {
                throw new IllegalStateException("a paced broadcast's pump runs with none queued");
            }
            if (!head.postWindow(fanout, window) && lastDone()) {
                return;
            }
            try {
                executor.execute(pump);
                return;
            } catch (RuntimeException refused) { // shut down: this thread posts on, so that nothing is dropped
            }
        }
    }

    /** Removes the finished head; true if no broadcast is left (the pump stops: the next caller starts one). */
    private synchronized boolean lastDone() {
        waiting.remove();
        if (waiting.isEmpty()) {
            pumping = false;
            return true;
        }
        return false;
    }

    /**
     * The contexts of {@code lanes}, one lane after the other, each walked by its set's weakly consistent
     * iterator; the lanes' own collection likewise.
     */
    static Iterator<RendererSyncContext> across(Collection<Lane> lanes) {
        Iterator<Lane> each = lanes.iterator();
        return new Iterator<>() {
            private Iterator<RendererSyncContext> current = Collections.emptyIterator();

            @Override
            public boolean hasNext() {
                while (!current.hasNext() && each.hasNext()) {
                    current = each.next().live.iterator();
                }
                return current.hasNext();
            }

            @Override
            public RendererSyncContext next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return current.next();
            }
        };
    }

    /**
     * One broadcast. Its fields are touched by one pump at a time; a pump's hand-off to the next (the executor's
     * {@code execute}, or this object's monitor) orders them.
     */
    private static final class Paced {

        final Iterator<RendererSyncContext> targets;
        final Predicate<? super RendererSyncContext> which;
        final Runnable callback;
        final CompletableFuture<Broadcast> done = new CompletableFuture<>();
        int delivered;
        int refused;

        Paced(Iterator<RendererSyncContext> targets, Predicate<? super RendererSyncContext> which, Runnable callback) {
            this.targets = targets;
            this.which = which;
            this.callback = callback;
        }

        /** Tries up to {@code window} contexts; false once all have been tried (the stage is then complete). */
        boolean postWindow(Fanout fanout, int window) {
            @Nullable Broadcast result = null;
            try {
                for (int tried = 0; tried < window && targets.hasNext(); ) {
                    RendererSyncContext context = targets.next();
                    if (which.test(context)) {
                        tried++;
                        if (fanout.post(context, callback, "A broadcast callback")) {
                            delivered++;
                        } else {
                            refused++;
                        }
                    }
                }
                if (targets.hasNext()) {
                    return true;
                }
                result = new Broadcast(delivered, refused);
            } catch (RuntimeException | Error failed) { // `which` threw: the contexts tried so far keep the callback
                done.completeExceptionally(failed);
                return false;
            }
            done.complete(result);
            return false;
        }
    }
}
