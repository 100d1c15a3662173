package dev.synccontext.statistics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The allocation gauge is a recent rate: it follows the counter, forgets old bursts and adds up. */
class AllocationRateTest {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final long START = 1_000 * SECOND;

    @Test
    void isTheCountersSlopeSinceTheStart() {
        AllocationRate rate = new AllocationRate(START);
        assertThat(rate.perSecond(0, START)).isZero();
        assertThat(rate.perSecond(10_000, START + 10 * SECOND)).isCloseTo(1_000, within(1e-9));
    }

    @Test
    void forgetsABurstOlderThanTwoWindows() {
        AllocationRate rate = new AllocationRate(START);
        long burst = 90_000_000; // all of it in the first 30 s
        assertThat(rate.perSecond(burst, START + 30 * SECOND)).isCloseTo(3_000_000, within(1e-6));
        // Quiet afterwards, read every minute as scrapes do: the window still holds the burst, then not.
        assertThat(rate.perSecond(burst, START + 90 * SECOND)).isCloseTo(1_000_000, within(1e-6));
        assertThat(rate.perSecond(burst, START + 150 * SECOND)).isZero();
    }

    @Test
    void twoInstancesRatesAddUpToTheRateOfTheirSum() {
        AllocationRate a = new AllocationRate(START);
        AllocationRate b = new AllocationRate(START);
        AllocationRate both = new AllocationRate(START);
        long now = START + 30 * SECOND;
        assertThat(a.perSecond(3_000, now) + b.perSecond(90_000, now))
                .isCloseTo(both.perSecond(93_000, now), within(1e-9));
    }
}
