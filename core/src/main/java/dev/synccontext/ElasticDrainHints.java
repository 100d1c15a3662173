package dev.synccontext;

/**
 * The one thing a context asks of the pool it drains on, beyond {@link java.util.concurrent.Executor#execute}:
 * whether a drain that has caught up with its producer may hold its thread a moment longer
 * ({@code Drain}, "Stepping back from a producer").
 *
 * <p>The context resolves its executor to this interface once, as its settings are built
 * ({@link ContextSettings#drainHints}); null there means the executor does not support stepping back, and
 * the drain never does. Only {@link ElasticExecutor} implements it: stepping back is a spin on the
 * drain's thread, which costs nothing only in a pool that would otherwise spin an idle worker for work.
 */
interface ElasticDrainHints {

    /**
     * Called on a thread of this pool by a drain right behind a producer: waits a bounded moment, writing
     * nothing the producer reads, unless (or until) other tasks are waiting for a thread. The caller's
     * contract (ownership, order, count) does not change; the callback it is about to take simply starts
     * a little later.
     *
     * @return whether it stepped back (false: other tasks are queued, and the drain goes on at once)
     */
    boolean stepBack();

    /**
     * Called on a thread of this pool by {@code drain} (the task this thread is running) once it has run
     * {@code maxBatch} callbacks, before it resubmits itself for fairness: true if the pool would run the
     * resubmitted drain next on this same thread anyway, because no other task waits for it. Then the
     * pool counts what follows as a new task, as it would count the resubmitted one, and the drain goes
     * on in place, which saves it giving the context up and taking it back (two CASes on the state word
     * every producer writes). False if another task waits, or this is not the pool's thread running
     * {@code drain}: then the drain resubmits itself, and goes behind the tasks that wait.
     */
    boolean continueAfterBatch(Runnable drain);
}
