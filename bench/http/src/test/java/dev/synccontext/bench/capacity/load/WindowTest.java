package dev.synccontext.bench.capacity.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The windows of several selector loops merge into the window one loop would have seen. */
class WindowTest {

    @Test
    void mergedWindowCountsAddAndPercentilesComeFromEverySample() {
        Window fast = new Window();
        for (int ms = 1; ms <= 99; ms++) {
            fast.latency(ms * 1_000_000L);
            fast.clickSent();
            fast.event();
        }
        fast.error("stream ended");
        Window slow = new Window();
        slow.latency(500_000_000L);
        slow.sendLag(3_000_000L);
        slow.clickSent();
        slow.overrun();
        slow.lineWait();
        slow.error("stream ended");
        slow.error("click answered 503");

        Window merged = Window.merge(List.of(fast.copy(), slow.copy()));

        assertThat(merged.updates()).isEqualTo(100);
        assertThat(merged.clicksSent()).isEqualTo(100);
        assertThat(merged.events()).isEqualTo(99);
        assertThat(merged.overruns()).isEqualTo(1);
        assertThat(merged.lineWaits()).isEqualTo(1);
        assertThat(merged.errors()).isEqualTo(Map.of("stream ended", 2L, "click answered 503", 1L));
        // Of 1..99 ms and 500 ms: p50 is the 50th sample, p99 the 99th, max the slow loop's; an average of the two
        // loops' p99 (99 and 500) would say 299.5.
        assertThat(merged.percentileMillis(0.5)).isEqualTo(50.0);
        assertThat(merged.percentileMillis(0.99)).isEqualTo(99.0);
        assertThat(merged.maxMillis()).isEqualTo(500.0);
        assertThat(merged.sendLagMillis(1.0)).isEqualTo(3.0);
    }

    @Test
    void oneWindowMergedAloneIsItself() {
        Window only = new Window();
        only.latency(7_000_000L);
        only.latency(2_000_000L);
        Window merged = Window.merge(List.of(only.copy()));
        assertThat(merged.updates()).isEqualTo(2);
        assertThat(merged.percentileMillis(0.5)).isEqualTo(2.0);
        assertThat(merged.maxMillis()).isEqualTo(7.0);
        assertThat(merged.sendLagMillis(0.99)).isNaN();
    }
}
