package dev.synccontext.spring.observation;

import dev.synccontext.CallbackOutcome;
import dev.synccontext.CallbackPath;
import dev.synccontext.spring.observation.QueuedCallbackObservationDocumentation.HighCardinalityKeys;
import dev.synccontext.spring.observation.QueuedCallbackObservationDocumentation.LowCardinalityKeys;
import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The observation {@code synccontext.queued} (its timer: the run of queued callbacks; with Boot's defaults
 * also a long task timer {@code synccontext.queued.active}), named {@code queued <scope>} in traces, tagged
 * as {@link QueuedCallbackObservationDocumentation} lists.
 *
 * <p>Its answers are asked for twice per queued callback (as the observation starts and as it stops), so the
 * low-cardinality tags and the contextual name are made once per scope and kept: a scope is one of a few
 * names, and this keeps 64 of them at most (a scope beyond those gets its tags made per call).
 */
public class DefaultQueuedCallbackObservationConvention implements QueuedCallbackObservationConvention {

    /** The observation's name, and so its timer's. */
    public static final String NAME = "synccontext.queued";

    /** How many scopes' tags are kept; scopes are a few fixed names, so this is only a guard. */
    static final int MAX_SCOPES_KEPT = 64;

    private static final String QUEUED = CallbackPath.QUEUED.name().toLowerCase(Locale.ROOT);
    private static final CallbackOutcome[] OUTCOMES = CallbackOutcome.values();

    private final ConcurrentHashMap<String, ScopeNames> scopes = new ConcurrentHashMap<>();

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public String getContextualName(QueuedCallbackContext context) {
        return names(context).contextualName;
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(QueuedCallbackContext context) {
        ScopeNames names = names(context);
        CallbackOutcome outcome = context.getOutcome();
        return outcome == null ? names.running : names.ended[outcome.ordinal()];
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(QueuedCallbackContext context) {
        return KeyValues.of(HighCardinalityKeys.CONTEXT.withValue(context.getContextName()),
                HighCardinalityKeys.QUEUE_WAIT.withValue(millis(context.getQueueWaitNanos())));
    }

    private ScopeNames names(QueuedCallbackContext context) {
        String scope = context.getScope();
        String key = scope == null ? "none" : scope;
        ScopeNames names = scopes.get(key);
        if (names != null) {
            return names;
        }
        return scopes.size() < MAX_SCOPES_KEPT ? scopes.computeIfAbsent(key, ScopeNames::new) : new ScopeNames(key);
    }

    /**
     * Milliseconds with three decimals ({@code 12.345}), rounded to the nearest microsecond; written by hand
     * because {@code String.format} looks up the locale's decimal symbols on every call, most of what
     * formatting this key used to allocate.
     */
    static String millis(long nanos) {
        long micros = (Math.max(0, nanos) + 500) / 1000;
        long fraction = micros % 1000;
        StringBuilder text = new StringBuilder(12).append(micros / 1000).append('.');
        if (fraction < 100) {
            text.append(fraction < 10 ? "00" : "0");
        }
        return text.append(fraction).toString();
    }

    /** A scope's contextual name and its tags while running and per outcome, made once. */
    private static final class ScopeNames {

        final String contextualName;
        final KeyValues running;
        final KeyValues[] ended = new KeyValues[OUTCOMES.length];

        ScopeNames(String scope) {
            contextualName = "queued " + scope;
            KeyValue scopeTag = LowCardinalityKeys.SCOPE.withValue(scope);
            KeyValue pathTag = LowCardinalityKeys.PATH.withValue(QUEUED);
            running = KeyValues.of(scopeTag, pathTag, LowCardinalityKeys.OUTCOME.withValue("unknown"));
            for (CallbackOutcome outcome : OUTCOMES) {
                ended[outcome.ordinal()] = KeyValues.of(scopeTag, pathTag,
                        LowCardinalityKeys.OUTCOME.withValue(outcome.name().toLowerCase(Locale.ROOT)));
            }
        }
    }
}
