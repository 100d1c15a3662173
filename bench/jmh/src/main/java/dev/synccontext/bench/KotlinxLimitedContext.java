package dev.synccontext.bench;

import kotlin.coroutines.EmptyCoroutineContext;
import kotlinx.coroutines.CoroutineDispatcher;
import kotlinx.coroutines.Dispatchers;

/**
 * {@code kotlinx-limited}: {@code Dispatchers.Default.limitedParallelism(1)} per context, called
 * from Java (kotlinx-coroutines-core-jvm, Spring Boot's version): a {@code LimitedDispatcher} with a
 * lock-free task queue that, when idle, dispatches one worker onto the shared {@code Default} pool
 * (CPUs-many daemon threads); the worker runs queued tasks and re-dispatches itself every 16 tasks
 * for fairness. Every call is a hand-off ({@code dispatch}), even on an idle context.
 *
 * <p>Guarantee (see {@link AlternativeContext}): at most one worker runs the dispatcher's queue, in
 * FIFO order; kotlinx has no thread check for a dispatcher, so each task is wrapped to set the
 * adapter's owner token (a nested call runs at once). That wrapper is one object per post the
 * dispatcher itself does not allocate.
 */
final class KotlinxLimitedContext extends HandOffContext {

    private final CoroutineDispatcher limited;

    KotlinxLimitedContext() {
        super("kotlinx-limited");
        limited = bareDispatcher();
    }

    /** The peer's own per-context object, for the footprint report. */
    static CoroutineDispatcher bareDispatcher() {
        return Dispatchers.getDefault().limitedParallelism(1, null); // Kotlin's limitedParallelism(1): no name
    }

    @Override
    void handOff(Runnable task) {
        limited.dispatch(EmptyCoroutineContext.INSTANCE, task);
    }
}
