package dev.synccontext;

import java.util.concurrent.CancellationException;
import java.util.concurrent.RejectedExecutionException;

/**
 * What a caller is told when its callback was refused or will not run: each message names the
 * context, what happened and, where there is one, the limit. The states that lead here are
 * {@link SyncContext}'s; a sender's own outcomes are {@link QueuedSend#awaitHandOff}'s.
 */
final class Refusals {

    private Refusals() {
    }

    /**
     * To a callback submitted after the context closed: typed and saying why when {@code termination} (the
     * context's, which exists once it is closed) says the application is shutting down. Read only here, on
     * the refusal path.
     */
    static RejectedExecutionException closed(String context, Termination termination) {
        if (termination.shuttingDownAcquire()) {
            return new ContextShuttingDownException(context);
        }
        return new RejectedExecutionException("Context '" + context + "' is closed and accepts no new callbacks");
    }

    static String full(String context, int maxQueueDepth) {
        return "Context '" + context + "' is full: " + maxQueueDepth
                + " callbacks are already waiting (maxQueueDepth = " + maxQueueDepth + ")";
    }

    /**
     * A queued callback that closeNow() aborted. Built with {@code concat}, not {@code +}: the first
     * closeNow() of a JVM builds it, and the first use of a {@code +} shape spins method handles there
     * (measured: 5-30 ms on a loaded 2-CPU machine, most of that call's time).
     */
    static CancellationException closedNowBeforeStart(String context) {
        return new CancellationException(
                "Context '".concat(context).concat("' was closed with closeNow() before this callback started"));
    }

    /** To a sender handed the context just as closeNow() returned. */
    static RejectedExecutionException closedNowAtTurn(String context) {
        return new RejectedExecutionException("send to context '" + context + "' did not run: the"
                + " context was closed with closeNow() as its turn came");
    }

    /** For a queued call whose waiting caller was handed its turn just as {@code closeNow()} came. */
    static RejectedExecutionException callClosedNowAtTurn(String context) {
        return new RejectedExecutionException("call to context '" + context + "' did not run: the"
                + " context was closed with closeNow() as its turn came");
    }

    /** For each callback queued behind a drain the executor refused. */
    static RejectedExecutionException drainRefused(String context, Throwable cause) {
        return new RejectedExecutionException("The executor of context '" + context
                + "' refused to run its drain, so this queued callback cannot run: " + cause, cause);
    }

    /** What {@code assertAccess()} throws off the context's callbacks. */
    static IllegalStateException noAccess(String context) {
        return new IllegalStateException("The current thread '" + Thread.currentThread().getName()
                + "' is not running a callback of context '" + context + "'. State owned by the context"
                + " may only be touched from inside it: use invokeAsync(...) (or post/send) to get there.");
    }
}
