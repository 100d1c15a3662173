package dev.synccontext;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * What the watchdog says about a blocked callback, and where: one WARNING log line (context and
 * scope, the callback's site, thread kind, run and queue times, the stack and, if recorded, the
 * submitting stack), the observer's {@link SyncContextObserver#callbackBlocked} (the metrics count it
 * there, and the actuator lists {@link RendererSyncContext#blockedCallbacks()}), and a
 * {@link BlockedCallbackEvent} for a Flight Recorder recording. Runs on the watchdog thread; never
 * throws for what the observer threw.
 */
final class WatchdogReport {

    static final int STACK_FRAMES_LOGGED = 32;
    static final int SUBMIT_FRAMES_LOGGED = 16;

    private static final System.Logger LOG = System.getLogger(RendererSyncContext.class.getName());

    private WatchdogReport() {
    }

    static void deliver(SyncContext ctx, BlockedCallback blocked) {
        SyncContextObserver observer = ctx.settings.observer;
        if (observer != null) {
            try {
                observer.callbackBlocked(blocked);
            } catch (Throwable failure) {
                LOG.log(System.Logger.Level.ERROR, "SyncContextObserver.callbackBlocked threw", failure);
            }
        }
        if (LOG.isLoggable(System.Logger.Level.WARNING)) {
            LOG.log(System.Logger.Level.WARNING, message(blocked, ctx.settings.blockedThresholdNanos));
        }
        FlightEvents.blocked(blocked);
    }

    static String message(BlockedCallback blocked, long thresholdNanos) {
        StringBuilder m = new StringBuilder().append("Callback of context '").append(blocked.contextName())
                .append('\'');
        if (blocked.scope() != null) {
            m.append(" (scope ").append(blocked.scope()).append(')');
        }
        StackTraceElement site = blocked.callbackSite();
        if (site != null) {
            m.append(" at ").append(site);
        }
        m.append(" has been running for at least ").append(blocked.runningFor().toMillis())
                .append(" ms on ").append(blocked.virtualThread() ? "virtual" : "platform").append(" thread '")
                .append(blocked.threadName()).append("' (blocked threshold ")
                .append(TimeUnit.NANOSECONDS.toMillis(thresholdNanos)).append(" ms; queued for ");
        Duration queued = blocked.queuedFor();
        m.append(queued == null ? "unknown (not sampled)" : queued.toMillis() + " ms")
                .append("); every other callback of this context waits behind it. Stack:");
        for (StackTraceElement element : blocked.topFrames(STACK_FRAMES_LOGGED)) {
            m.append("\n\tat ").append(element);
        }
        if (!blocked.submitStack().isEmpty()) {
            m.append("\nSubmitted at:");
            blocked.submitStack().stream().limit(SUBMIT_FRAMES_LOGGED)
                    .forEach(element -> m.append("\n\tat ").append(element));
        }
        return m.toString();
    }
}
