package dev.synccontext;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import org.jspecify.annotations.Nullable;

/**
 * JFR event: {@code closeNow()} closed a context with work that had not started. Committed on the
 * thread that called it, with its stack trace (who closed it).
 */
@Name("dev.synccontext.ContextClosedWithDroppedWork")
@Label("Context Closed With Work Dropped")
@Category({"synccontext"})
@Description("closeNow() aborted queued callbacks of a context")
final class DroppedWorkEvent extends jdk.jfr.Event {

    @Label("Context")
    @Nullable String context;

    @Label("Scope")
    @Nullable String scope;

    @Label("Dropped")
    @Description("Queued callbacks aborted: futures cancelled, senders failed, posts returned")
    int dropped;

    @Label("Posts Returned")
    int postsReturned;
}
