package dev.synccontext.durable;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;

/**
 * A node's writer or renewer that can be held (a paused node: its writes and renewals wait, in order) and let
 * go; not held, it runs each task on the caller. Confined to the test's thread.
 */
final class Holdable implements Executor {
    private final ArrayDeque<Runnable> held = new ArrayDeque<>();
    private boolean holding;

    @Override
    public void execute(Runnable task) {
        if (holding) {
            held.add(task);
        } else {
            task.run();
        }
    }

    void hold() {
        holding = true;
    }

    void letGo() {
        holding = false;
        while (!held.isEmpty()) {
            held.poll().run();
        }
    }
}
