package dev.synccontext;

import java.util.concurrent.CancellationException;

/** Maps what a callback threw to its {@link CallbackOutcome}. */
final class Outcomes {

    private Outcomes() {
    }

    static CallbackOutcome of(Throwable failure) {
        return failure instanceof CancellationException ? CallbackOutcome.CANCELLED : CallbackOutcome.FAILURE;
    }
}
