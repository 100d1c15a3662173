package dev.synccontext.spring.observation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.CallbackOutcome;
import io.micrometer.common.KeyValue;
import org.junit.jupiter.api.Test;

class DefaultQueuedCallbackObservationConventionTest {

    private final DefaultQueuedCallbackObservationConvention convention = new DefaultQueuedCallbackObservationConvention();

    @Test
    void theQueueWaitIsWrittenInMillisecondsWithThreeDecimalsRoundedToTheMicrosecond() {
        assertThat(DefaultQueuedCallbackObservationConvention.millis(0)).isEqualTo("0.000");
        assertThat(DefaultQueuedCallbackObservationConvention.millis(7_400)).isEqualTo("0.007");
        assertThat(DefaultQueuedCallbackObservationConvention.millis(12_345_678)).isEqualTo("12.346");
        assertThat(DefaultQueuedCallbackObservationConvention.millis(999_999_600)).isEqualTo("1000.000");
        assertThat(DefaultQueuedCallbackObservationConvention.millis(40_050_000)).isEqualTo("40.050");
    }

    @Test
    void theTagsNameTheScopeThePathAndTheOutcomeOnceItIsKnown() {
        QueuedCallbackContext context = new QueuedCallbackContext("session-7", "session", 1_500_000);
        assertThat(convention.getLowCardinalityKeyValues(context)).containsExactly(KeyValue.of("outcome", "unknown"),
                KeyValue.of("path", "queued"), KeyValue.of("scope", "session"));
        context.setOutcome(CallbackOutcome.CANCELLED);
        assertThat(convention.getLowCardinalityKeyValues(context)).containsExactly(KeyValue.of("outcome", "cancelled"),
                KeyValue.of("path", "queued"), KeyValue.of("scope", "session"));
        assertThat(convention.getContextualName(context)).isEqualTo("queued session");
        assertThat(convention.getHighCardinalityKeyValues(context)).containsExactly(
                KeyValue.of("synccontext.context", "session-7"), KeyValue.of("synccontext.queue.wait", "1.500"));
    }

    @Test
    void aContextWithoutScopeIsTaggedNone() {
        QueuedCallbackContext context = new QueuedCallbackContext("none", null, 0);
        assertThat(convention.getContextualName(context)).isEqualTo("queued none");
        assertThat(convention.getLowCardinalityKeyValues(context)).contains(KeyValue.of("scope", "none"));
    }

    @Test
    void scopesBeyondTheKeptOnesAreStillTaggedRightly() {
        for (int i = 0; i < DefaultQueuedCallbackObservationConvention.MAX_SCOPES_KEPT + 10; i++) {
            QueuedCallbackContext context = new QueuedCallbackContext("c", "scope-" + i, 0);
            assertThat(convention.getLowCardinalityKeyValues(context)).contains(KeyValue.of("scope", "scope-" + i));
            assertThat(convention.getContextualName(context)).isEqualTo("queued scope-" + i);
        }
    }
}
