package dev.synccontext.reactor;

import dev.synccontext.RendererSyncContext;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.CoreSubscriber;
import reactor.core.Scannable;
import reactor.core.publisher.Hooks;
import reactor.core.publisher.Operators;

/**
 * Makes a Reactor {@code block()} from inside a context visible to the deadlock detection (docs/DESIGN.md,
 * "Deadlock detection", "Through Reactor's block()"). Installed once, when {@link ContextScheduler} is
 * first used, as the {@code Hooks.onLastOperator} hook named {@link #HOOK_KEY}; removed with
 * {@code Hooks.resetOnLastOperator(HOOK_KEY)}.
 *
 * <ul>
 *   <li><b>The waiting side.</b> Reactor runs the hook when a pipeline is subscribed, on the subscribing
 *       thread. Outside any context it returns the pipeline untouched (one thread-local read per
 *       subscription). On a context's thread it lifts it, and the lift puts a {@link BlockWatch} in front
 *       of Reactor's own blocking subscriber ({@code Mono.block()}, {@code blockOptional()},
 *       {@code Flux.blockFirst()}/{@code blockLast()}), and of no other: the watch records the wait
 *       before the pipeline is subscribed, so before any of its tasks can be queued.</li>
 *   <li><b>The queueing side.</b> When a {@link ContextScheduler} queues a task while some watch is live,
 *       it follows the task's downstream chain ({@code Scannable.Attr.ACTUAL}: Reactor's
 *       {@code publishOn}, {@code subscribeOn} and {@code delay} tasks are their pipeline's subscribers)
 *       to the watch of the pipeline it belongs to, and has the watch check for a cycle before the task
 *       is queued ({@link BlockWatch#queueing}).</li>
 * </ul>
 */
final class BlockingWaits {

    /** The key of the {@code Hooks.onLastOperator} hook. */
    static final String HOOK_KEY = "dev.synccontext.reactor.BlockingWaits";

    /** The longest downstream chain followed from a queued task to its pipeline's watch. */
    static final int MAX_HOPS = 64;

    private static final Function<? super Publisher<Object>, ? extends Publisher<Object>> LIFT =
            Operators.<Object, Object>liftPublisher((publisher, subscriber) -> watch(publisher, subscriber));
    private static final @Nullable VarHandle COMPLETION_STAGE_FUTURE = futureField();

    private static final Function<? super Publisher<Object>, ? extends Publisher<Object>> HOOK =
            publisher -> RendererSyncContext.current() == null ? publisher : LIFT.apply(publisher);

    private BlockingWaits() {
    }

    /** Installs the hook, or installs it again (Reactor keeps one hook per key). */
    static void install() {
        Hooks.onLastOperator(HOOK_KEY, HOOK);
    }

    /** The watch of the blocked pipeline {@code task} belongs to, if one is live. */
    static @Nullable BlockWatch<?> watchOf(Runnable task) {
        if (BlockWatch.LIVE.get() == 0) {
            return null;
        }
        Object at = task;
        for (int hop = 0; hop < MAX_HOPS && at instanceof Scannable scannable; hop++) {
            if (at instanceof BlockWatch<?> watch) {
                return watch;
            }
            at = scannable.scanUnsafe(Scannable.Attr.ACTUAL);
        }
        return null;
    }

    private static CoreSubscriber<? super Object> watch(Publisher<?> publisher,
            CoreSubscriber<? super Object> subscriber) {
        if (!isReactorBlockingSubscriber(subscriber)) {
            return subscriber;
        }
        boolean endsOnFirstValue = !subscriber.getClass().getSimpleName().equals("BlockingLastSubscriber");
        return new BlockWatch<>(subscriber, endsOnFirstValue, futuresOf(publisher));
    }

    /** Reactor's subscribers behind {@code block()} and its variants: a {@code BlockingSingleSubscriber}, a latch. */
    private static boolean isReactorBlockingSubscriber(Object subscriber) {
        return subscriber instanceof CountDownLatch
                && subscriber.getClass().getName().startsWith("reactor.core.publisher.Blocking");
    }

    /**
     * The futures of the {@code Mono.fromFuture}/{@code fromCompletionStage} sources upstream of
     * {@code publisher} (Reactor keeps each in a field of its source, which it does not expose; read
     * through a private lookup, and skipped if this Reactor version has no such field).
     */
    private static List<Future<?>> futuresOf(Publisher<?> publisher) {
        VarHandle field = COMPLETION_STAGE_FUTURE;
        if (field == null) {
            return List.of();
        }
        List<Future<?>> futures = new ArrayList<>(0);
        Scannable at = Scannable.from(publisher);
        for (int hop = 0; hop < MAX_HOPS && at.isScanAvailable(); hop++) {
            if (isCompletionStageSource(at)) {
                Object future = field.get(at);
                if (future instanceof Future<?> f) {
                    futures.add(f);
                }
            }
            Object parent = at.scanUnsafe(Scannable.Attr.PARENT);
            at = Scannable.from(parent);
        }
        return futures;
    }

    private static boolean isCompletionStageSource(Object publisher) {
        return publisher.getClass().getName().equals("reactor.core.publisher.MonoCompletionStage");
    }

    private static @Nullable VarHandle futureField() {
        try {
            Class<?> source = Class.forName("reactor.core.publisher.MonoCompletionStage");
            return MethodHandles.privateLookupIn(source, MethodHandles.lookup()).findVarHandle(source, "future",
                    java.util.concurrent.CompletionStage.class);
        } catch (ReflectiveOperationException | RuntimeException notThisReactor) {
            return null;
        }
    }
}
