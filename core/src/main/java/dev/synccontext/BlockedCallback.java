package dev.synccontext;

import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A callback that has run longer than its context's blocked threshold, as seen by the watchdog: which
 * context (name and scope), which callback (its own frame, {@link #callbackSite}), on which thread
 * (platform or virtual), how long it waited and has run, what it is doing (its stack) and, when
 * submit-site sampling recorded it, who queued it.
 *
 * @param contextName the name of the context whose callback is running
 * @param context the context itself
 * @param threadName the name of the thread running the callback (a virtual thread without a name is
 *     shown as {@code Thread.toString()})
 * @param threadId the id of that thread
 * @param runningFor how long it has been running, at least (the watchdog samples, so the true time
 *     may be up to one watchdog tick longer)
 * @param stack the thread's stack when the watchdog looked, innermost frame first
 * @param scope the context's scope ({@link RendererSyncContext.Builder#scope}), or null if it has none
 * @param callbackSite the callback's own frame in {@code stack}: the frame just inside the library's
 *     call of it, past decorators and {@code CompletableFuture} tasks; for a lambda, its body's method
 *     ({@code Foo.lambda$bar$0}) and the line it is on. Null if the stack holds no such frame
 * @param virtualThread whether the thread is a virtual thread
 * @param queuedFor how long it waited in the queue before it started, if known: {@code ZERO} for a
 *     callback that ran on its caller's thread (inline, nested or {@code send}), measured for sampled
 *     queued callbacks (the observer's timing sample or submit-site sampling), else null
 * @param submitStack the stack that queued it, innermost first, when submit-site sampling recorded it;
 *     otherwise empty
 */
public record BlockedCallback(
        String contextName,
        RendererSyncContext context,
        String threadName,
        long threadId,
        Duration runningFor,
        List<StackTraceElement> stack,
        @Nullable String scope,
        @Nullable StackTraceElement callbackSite,
        boolean virtualThread,
        @Nullable Duration queuedFor,
        List<StackTraceElement> submitStack) {

    public BlockedCallback {
        stack = List.copyOf(stack);
        submitStack = List.copyOf(submitStack);
    }

    /** A report with only what the watchdog always knows (no scope, site, queue wait or submit stack). */
    public BlockedCallback(String contextName, RendererSyncContext context, String threadName, long threadId,
            Duration runningFor, List<StackTraceElement> stack) {
        this(contextName, context, threadName, threadId, runningFor, stack, null, null, false, null, List.of());
    }

    /** At most {@code max} frames of {@link #stack()}, innermost first. */
    public List<StackTraceElement> topFrames(int max) {
        return stack.subList(0, Math.min(max, stack.size()));
    }
}
