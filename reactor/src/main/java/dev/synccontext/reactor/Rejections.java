package dev.synccontext.reactor;

import dev.synccontext.RendererSyncContext;
import java.util.concurrent.RejectedExecutionException;

/** What a refused task is told: each message names the context and what to do. */
final class Rejections {

    private Rejections() {
    }

    static RejectedExecutionException disposed(String what, RendererSyncContext context) {
        return new RejectedExecutionException("The Reactor " + what + " over context '" + context.name()
                + "' was disposed; schedule on a new ContextScheduler.of(context) while the context is open");
    }

    /** A delayed task could never run on a closed context, so it is refused now rather than dropped when due. */
    static void rejectIfClosed(RendererSyncContext context) {
        if (context.isClosed()) {
            throw new RejectedExecutionException("Context '" + context.name()
                    + "' is closed; a delayed task on its ContextScheduler could never run");
        }
    }

    /** For {@code Hooks.onErrorDropped}: no subscriber is left to tell; the cause says closed or full. */
    static RejectedExecutionException refusedWhenDue(RendererSyncContext context, RejectedExecutionException cause) {
        return new RejectedExecutionException("A delayed task of the ContextScheduler over context '" + context.name()
                + "' fell due when the context refused it (" + cause.getMessage() + "); it did not run", cause);
    }
}
