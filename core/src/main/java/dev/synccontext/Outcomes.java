package dev.synccontext;

import java.util.concurrent.CancellationException;

/** Maps what a callback threw to its {@link TaskOutcome}. */
final class Outcomes {

    private Outcomes() {
    }

    static TaskOutcome of(Throwable failure) {
        return failure instanceof CancellationException ? TaskOutcome.CANCELLED : TaskOutcome.FAILURE;
    }
}
