package dev.synccontext.bench.capacity.load;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The check behind the harness's figures fails on an update that is repeated, reordered or unknown. */
class NonceOrderTest {

    private final NonceOrder order = new NonceOrder();

    @Test
    void updatesInSendingOrderPassWithTheirLatency() {
        sentSevenThenNine();
        assertThat(order.received(7, 150)).isEqualTo(NonceOrder.Verdict.IN_ORDER);
        assertThat(order.lastLatencyNanos()).isEqualTo(50);
        assertThat(order.received(9, 260)).isEqualTo(NonceOrder.Verdict.IN_ORDER);
        assertThat(order.lastLatencyNanos()).isEqualTo(60);
        assertThat(order.waiting()).isZero();
    }

    @Test
    void aRepeatedUpdateIsUnknown() {
        order.sent(7, 100);
        order.received(7, 150);
        assertThat(order.received(7, 160)).isEqualTo(NonceOrder.Verdict.UNKNOWN);
    }

    @Test
    void anUpdateThatOvertakesAnEarlierClickIsOutOfOrder() {
        sentSevenThenNine();
        assertThat(order.received(9, 250)).isEqualTo(NonceOrder.Verdict.OUT_OF_ORDER);
        assertThat(order.waiting()).as("the overtaken click is dropped, reported once").isZero();
        assertThat(order.received(7, 260)).isEqualTo(NonceOrder.Verdict.UNKNOWN);
    }

    @Test
    void aLostUpdateLeavesItsClickWaiting() {
        order.sent(7, 100);
        assertThat(order.waiting()).isEqualTo(1);
        assertThat(order.clear()).isEqualTo(1);
    }

    /** Click 7 sent at 100 ns, then click 9 at 200 ns. */
    private void sentSevenThenNine() {
        order.sent(7, 100);
        order.sent(9, 200);
    }
}
