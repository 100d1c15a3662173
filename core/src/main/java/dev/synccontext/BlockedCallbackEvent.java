package dev.synccontext;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;
import org.jspecify.annotations.Nullable;

/**
 * JFR event: the watchdog found a callback running longer than its context's blocked threshold (one
 * event per callback, when it is reported). Committed on the watchdog thread, so its own stack trace
 * would be the watchdog's: the blocked thread's stack is the {@code stack} field instead.
 */
@Name("dev.synccontext.BlockedCallback")
@Label("Blocked Callback")
@Category({"synccontext"})
@Description("A context callback ran longer than the context's blocked threshold")
@StackTrace(false)
final class BlockedCallbackEvent extends jdk.jfr.Event {

    @Label("Context")
    @Nullable String context;

    @Label("Scope")
    @Nullable String scope;

    @Label("Callback Site")
    @Description("The callback's own frame (for a lambda, its body's method and line)")
    @Nullable String callbackSite;

    @Label("Running For")
    @Timespan(Timespan.NANOSECONDS)
    long runningFor;

    @Label("Queued For")
    @Description("Time in the queue before it started; -1 when not sampled")
    @Timespan(Timespan.NANOSECONDS)
    long queuedFor;

    @Label("Thread")
    @Nullable String threadName;

    @Label("Virtual Thread")
    boolean virtualThread;

    @Label("Stack")
    @Description("The blocked thread's stack, innermost frame first")
    @Nullable String stack;

    @Label("Submit Stack")
    @Description("The stack that queued the callback, when submit-site sampling recorded it")
    @Nullable String submitStack;
}
