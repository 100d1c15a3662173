package dev.synccontext;

import java.util.List;

/**
 * Emits the JDK Flight Recorder events ({@link BlockedCallbackEvent}, {@link QueueWaitEvent},
 * {@link DroppedWorkEvent}), only from paths that are rare already (a report, a sampled callback, a
 * {@code closeNow()} that dropped work), each behind the event's own {@code shouldCommit()}: with no
 * recording running an event object is made and dropped (escape analysis removes it), no field is
 * filled. On a runtime without the {@code jdk.jfr} module nothing is emitted at all.
 */
final class FlightEvents {

    private static final boolean AVAILABLE = ModuleLayer.boot().findModule("jdk.jfr").isPresent();

    private FlightEvents() {
    }

    static void blocked(BlockedCallback blocked) {
        if (!AVAILABLE) {
            return;
        }
        BlockedCallbackEvent event = new BlockedCallbackEvent();
        if (event.shouldCommit()) {
            event.context = blocked.contextName();
            event.scope = blocked.scope();
            StackTraceElement site = blocked.callbackSite();
            event.callbackSite = site == null ? null : site.toString();
            event.runningFor = blocked.runningFor().toNanos();
            event.queuedFor = blocked.queuedFor() == null ? -1 : blocked.queuedFor().toNanos();
            event.threadName = blocked.threadName();
            event.virtualThread = blocked.virtualThread();
            event.stack = frames(blocked.stack());
            event.submitStack = blocked.submitStack().isEmpty() ? null : frames(blocked.submitStack());
            event.commit();
        }
    }

    static void queueWait(SyncContext ctx, long waitNanos, long runNanos) {
        if (!AVAILABLE) {
            return;
        }
        QueueWaitEvent event = new QueueWaitEvent();
        if (event.shouldCommit()) {
            event.context = ctx.name;
            event.scope = ctx.settings.scope;
            event.queuedFor = waitNanos;
            event.ranFor = runNanos;
            event.commit();
        }
    }

    static void droppedWork(SyncContext ctx, int dropped, int postsReturned) {
        if (!AVAILABLE) {
            return;
        }
        DroppedWorkEvent event = new DroppedWorkEvent();
        if (event.shouldCommit()) {
            event.context = ctx.name;
            event.scope = ctx.settings.scope;
            event.dropped = dropped;
            event.postsReturned = postsReturned;
            event.commit();
        }
    }

    private static String frames(List<StackTraceElement> stack) {
        StringBuilder s = new StringBuilder();
        for (StackTraceElement frame : stack) {
            s.append("at ").append(frame).append('\n');
        }
        return s.toString();
    }
}
