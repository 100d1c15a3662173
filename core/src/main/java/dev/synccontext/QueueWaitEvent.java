package dev.synccontext;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;
import org.jspecify.annotations.Nullable;

/**
 * JFR event: a sampled queued callback ran (the observer's sampling, one in
 * {@link SyncContextObserver#samplingInterval()}): how long it waited in the queue and ran. Committed
 * on the thread that ran it.
 */
@Name("dev.synccontext.QueueWait")
@Label("Sampled Queue Wait")
@Category({"synccontext"})
@Description("A sampled queued callback: its wait in the queue and its run time")
@StackTrace(false)
final class QueueWaitEvent extends jdk.jfr.Event {

    @Label("Context")
    @Nullable String context;

    @Label("Scope")
    @Nullable String scope;

    @Label("Queued For")
    @Timespan(Timespan.NANOSECONDS)
    long queuedFor;

    @Label("Ran For")
    @Timespan(Timespan.NANOSECONDS)
    long ranFor;
}
