package dev.synccontext.test.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * Every thread of one node instance: its contexts' drains, its request threads, its store writes, lease renewals and
 * hand-off deliveries all run as tasks of the kit's executor through this gate. A paused gate keeps the tasks that
 * come due (a stopped process keeps its threads' work); a killed gate drops them (the process is gone).
 *
 * <p>Checked when a task runs, not when it is queued: a task the kit queued before a pause is held when its turn
 * comes, as a stopped process's runnable thread does not run.
 */
final class NodeGate implements Executor {

    /** What the gate does with a task whose turn came. */
    enum State {
        /** Runs it. */
        OPEN,
        /** Keeps it until {@link #resume()}: the node is stalled (a long GC pause, SIGSTOP). */
        PAUSED,
        /** Drops it: the node was killed. */
        KILLED
    }

    private final Executor kit;
    private final List<Runnable> held = new ArrayList<>();
    private State state = State.OPEN;

    NodeGate(Executor kit) {
        this.kit = kit;
    }

    @Override
    public void execute(Runnable task) {
        if (state() == State.KILLED) {
            return;
        }
        kit.execute(() -> runOrHold(task));
    }

    private void runOrHold(Runnable task) {
        synchronized (this) {
            if (state == State.KILLED) {
                return;
            }
            if (state == State.PAUSED) {
                held.add(task);
                return;
            }
        }
        task.run();
    }

    synchronized State state() {
        return state;
    }

    synchronized void pause() {
        if (state == State.OPEN) {
            state = State.PAUSED;
        }
    }

    /** Opens the gate and queues the held tasks on the kit, in the order they were held. */
    void resume() {
        List<Runnable> release;
        synchronized (this) {
            if (state != State.PAUSED) {
                return;
            }
            state = State.OPEN;
            release = new ArrayList<>(held);
            held.clear();
        }
        release.forEach(this::execute);
    }

    /** Drops held tasks and every task to come. */
    synchronized void kill() {
        state = State.KILLED;
        held.clear();
    }
}
