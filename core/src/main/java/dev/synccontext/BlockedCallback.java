package dev.synccontext;

import java.time.Duration;
import java.util.List;

/**
 * A callback that has run longer than its context's blocked threshold, as seen by the watchdog.
 *
 * @param contextName the name of the context whose callback is running
 * @param context the context itself
 * @param threadName the name of the thread running the callback
 * @param threadId the id of that thread
 * @param runningFor how long it has been running, at least (the watchdog samples, so the true time
 *     may be up to one watchdog tick longer)
 * @param stack the thread's stack when the watchdog looked, innermost frame first
 */
public record BlockedCallback(
        String contextName,
        RendererSyncContext context,
        String threadName,
        long threadId,
        Duration runningFor,
        List<StackTraceElement> stack) {

    public BlockedCallback {
        stack = List.copyOf(stack);
    }

    /** At most {@code max} frames of {@link #stack()}, innermost first. */
    public List<StackTraceElement> topFrames(int max) {
        return stack.subList(0, Math.min(max, stack.size()));
    }
}
