package dev.synccontext.bench;

import io.grpc.SynchronizationContext;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ForkJoinPool;

/**
 * {@code grpc-sync}: one gRPC-java {@code SynchronizationContext} per context (grpc-api): a
 * {@code ConcurrentLinkedQueue} and a draining-thread reference. It has no executor of its own: its
 * {@code execute} queues the task and drains the queue <em>on the calling thread</em> unless another
 * thread is draining already. So {@code invokeAsync*} from outside uses that natural {@code execute}
 * (inline when idle, like our context), while {@code post}, which must never run inside the call,
 * queues with {@code executeLater} and hands the drain to {@link ForkJoinPool#commonPool()}; one
 * drain task is scheduled at a time (a flag cleared by the drain before it starts), so a burst of
 * posts costs one common-pool submission, not one each, and a post from inside a task schedules
 * nothing (the thread draining runs it next, as gRPC's own code relies on).
 *
 * <p>Guarantee (see {@link AlternativeContext}): gRPC's drain runs the queue one task at a time in
 * order on whichever thread holds it; a task queued while nobody drains is picked up by the scheduled
 * drain or by the next {@code execute}. gRPC's own thread check throws instead of answering, so each
 * task is wrapped to set the adapter's owner token (a nested call runs at once); that wrapper is one
 * object per call the synchronization context itself does not allocate.
 */
final class GrpcSyncContext extends HandOffContext {

    private static final VarHandle DRAIN_SCHEDULED;

    static {
        try {
            DRAIN_SCHEDULED = MethodHandles.lookup().findVarHandle(GrpcSyncContext.class, "drainScheduled",
                    boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final SynchronizationContext sync;
    private final Runnable drain = this::drain;
    @SuppressWarnings("unused") // through DRAIN_SCHEDULED
    private volatile boolean drainScheduled;

    GrpcSyncContext() {
        super("grpc-sync");
        sync = bareContext();
    }

    /** The peer's own per-context object, for the footprint report. */
    static SynchronizationContext bareContext() {
        return new SynchronizationContext((thread, failure) -> failure.printStackTrace());
    }

    @Override
    void handOff(Runnable task) {
        sync.executeLater(task);
        // Inside a task the thread draining this context runs the task after the current one (gRPC's
        // drain loops until the queue is empty), so only a post from outside needs a drain scheduled.
        if (!checkAccess() && DRAIN_SCHEDULED.compareAndSet(this, false, true)) {
            ForkJoinPool.commonPool().execute(drain);
        }
    }

    /** An outside {@code invokeAsync*}: gRPC's own {@code execute}, which drains here when nobody else does. */
    @Override
    void enter(Runnable task) {
        sync.execute(task);
    }

    private void drain() {
        drainScheduled = false; // a post after this line schedules the next drain
        sync.drain();
    }
}
