package dev.synccontext.spring.observation;

import dev.synccontext.CallbackOutcome;
import dev.synccontext.CallbackPath;
import dev.synccontext.spring.observation.QueuedCallbackObservationDocumentation.HighCardinalityKeys;
import dev.synccontext.spring.observation.QueuedCallbackObservationDocumentation.LowCardinalityKeys;
import io.micrometer.common.KeyValues;
import java.util.Locale;

/**
 * The observation {@code synccontext.queued} (its timer: the run of queued callbacks; with Boot's defaults
 * also a long task timer {@code synccontext.queued.active}), named {@code queued <scope>} in traces, tagged
 * as {@link QueuedCallbackObservationDocumentation} lists.
 */
public class DefaultQueuedCallbackObservationConvention implements QueuedCallbackObservationConvention {

    /** The observation's name, and so its timer's. */
    public static final String NAME = "synccontext.queued";

    private static final String QUEUED = CallbackPath.QUEUED.name().toLowerCase(Locale.ROOT);

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public String getContextualName(QueuedCallbackContext context) {
        return "queued " + scope(context);
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(QueuedCallbackContext context) {
        CallbackOutcome outcome = context.getOutcome();
        return KeyValues.of(LowCardinalityKeys.SCOPE.withValue(scope(context)),
                LowCardinalityKeys.PATH.withValue(QUEUED),
                LowCardinalityKeys.OUTCOME.withValue(outcome == null ? "unknown" : outcome.name().toLowerCase(Locale.ROOT)));
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(QueuedCallbackContext context) {
        return KeyValues.of(HighCardinalityKeys.CONTEXT.withValue(context.getContextName()),
                HighCardinalityKeys.QUEUE_WAIT.withValue(millis(context.getQueueWaitNanos())));
    }

    private static String scope(QueuedCallbackContext context) {
        String scope = context.getScope();
        return scope == null ? "none" : scope;
    }

    private static String millis(long nanos) {
        return String.format(Locale.ROOT, "%.3f", nanos / 1e6);
    }
}
