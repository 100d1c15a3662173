package dev.synccontext;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.jspecify.annotations.Nullable;

/**
 * A thread of a {@link ElasticPool}: runs the pool's loop ({@link ElasticPool#work}) and publishes what
 * the {@link ElasticMonitor} reads to tell a stuck task from a busy thread.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>Who writes what.</b> {@link #current}, the task sequence number, the start time and
 *       {@link #next} are written by this worker only; {@link #seenSeq} by the monitor only. The two
 *       words other threads change, the park state and the blocked mark, change only by CAS (or, for
 *       the park state, a plain write by this worker while nobody else may touch it, as it starts to park).</li>
 *   <li><b>Cheap to publish, stale at worst by a tick.</b> The worker publishes its task with a release
 *       store and its sequence number and start time with opaque stores, no fence on the task path; the
 *       monitor reads them opaque. A stale read only delays compensation by one look.</li>
 *   <li><b>The blocked mark is counted back once.</b> {@link #markBlocked} (monitor) and
 *       {@link #unmarkBlocked} (worker, as its task ends or it parks) are the only moves of the mark, each
 *       a CAS: whichever side wins decides who adjusts the pool's awake count, so it is adjusted once.</li>
 * </ul>
 * The accessors carry their access mode in their names ({@code casState}, {@code currentOpaque}).
 */
final class ElasticWorker extends Thread {

    /** Parked in {@link ElasticPool#park}, in the idle list; moved to {@link #AWAKE} by a waker's CAS. */
    static final int PARKED = 0;
    /**
     * Running, searching for work or spinning. Set at start; set from {@link #PARKED} by the CAS of
     * whoever wakes it (a submitter, or the worker itself on its last look before parking).
     */
    static final int AWAKE = 1;
    /** Retired after {@code keepAlive} parked: moved from {@link #PARKED} by the worker's own CAS; final. */
    static final int RETIRED = 2;

    final ElasticPool pool;
    @SuppressWarnings("unused") // Accessed through STATE.
    private volatile int state = AWAKE;
    /** 1 while the monitor does not count this worker as awake because its task is stuck. */
    @SuppressWarnings("unused") // Accessed through BLOCKED.
    private volatile int blocked;
    /** The task running now, or null. Written by this worker only. */
    @Nullable Runnable current;
    /** Incremented as each task starts. Written by this worker only. */
    private int taskSeq;
    /** {@link System#nanoTime()} as the current task started. Written by this worker only. */
    @SuppressWarnings("unused") // Accessed through STARTED_AT.
    private long startedAt;
    /** Monitor-owned: the sequence number seen at the last look. */
    int seenSeq = -1;
    /** A drain this worker resubmitted from inside itself; runs next. Worker-owned. */
    @Nullable Runnable next;

    /** Made through {@link LibraryThreads#create} only: a daemon that inherits nothing from its creator. */
    ElasticWorker(ElasticPool pool, String name) {
        super(null, null, name, 0, false);
        this.pool = pool;
    }

    @Override
    public void run() {
        pool.work(this);
    }

    void startTask(Runnable task) {
        STARTED_AT.setOpaque(this, System.nanoTime());
        TASK_SEQ.setOpaque(this, taskSeq + 1);
        CURRENT.setRelease(this, task);
    }

    long startedAtOpaque() {
        return (long) STARTED_AT.getOpaque(this);
    }

    /** Clears the task; true if the monitor had marked this worker blocked (now unmarked). */
    boolean endTask() {
        CURRENT.setRelease(this, null);
        return unmarkBlocked();
    }

    /** True if the monitor had marked this worker blocked (a race with the end of its task); now unmarked. */
    boolean unmarkBlocked() {
        return (int) BLOCKED.getOpaque(this) == 1 && BLOCKED.compareAndSet(this, 1, 0);
    }

    /** Whether the monitor marks this worker blocked now (observation: an opaque read, may be a tick stale). */
    boolean isBlockedOpaque() {
        return (int) BLOCKED.getOpaque(this) == 1;
    }

    boolean markBlocked() {
        return (int) BLOCKED.getOpaque(this) == 0 && BLOCKED.compareAndSet(this, 0, 1);
    }

    Runnable currentOpaque() {
        return (Runnable) CURRENT.getOpaque(this);
    }

    int taskSeqOpaque() {
        return (int) TASK_SEQ.getOpaque(this);
    }

    int state() {
        return state;
    }

    void setState(int s) {
        state = s;
    }

    boolean casState(int expected, int s) {
        return STATE.compareAndSet(this, expected, s);
    }

    private static final VarHandle STATE =
            FieldHandles.find(MethodHandles.lookup(), ElasticWorker.class, "state", int.class);
    private static final VarHandle BLOCKED =
            FieldHandles.find(MethodHandles.lookup(), ElasticWorker.class, "blocked", int.class);
    private static final VarHandle CURRENT =
            FieldHandles.find(MethodHandles.lookup(), ElasticWorker.class, "current", Runnable.class);
    private static final VarHandle TASK_SEQ =
            FieldHandles.find(MethodHandles.lookup(), ElasticWorker.class, "taskSeq", int.class);
    private static final VarHandle STARTED_AT =
            FieldHandles.find(MethodHandles.lookup(), ElasticWorker.class, "startedAt", long.class);
}
