package dev.synccontext.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The figures the pace assertions of the drain tests rest on, on instants whose answer is known. */
class ArrivalsTest {

    @Test
    void maxInWindowCountsTheBusiestHalfOpenWindow() {
        List<Long> sorted = List.of(0L, 10L, 20L, 100L, 105L, 109L, 110L);
        assertThat(Arrivals.maxInWindow(sorted, 10)).as("100, 105, 109: 110 is a whole window after 100").isEqualTo(3);
        assertThat(Arrivals.maxInWindow(sorted, 1_000)).as("all in one window").isEqualTo(7);
        assertThat(Arrivals.maxInWindow(List.of(), 10)).as("none").isZero();
    }

    @Test
    void histogramCountsEachBucketFromTheFirstInstantEmptyBucketsIncluded() {
        assertThat(Arrivals.histogram(List.of(1_000L, 1_050L, 1_099L, 1_100L, 1_350L), 100))
                .isEqualTo(List.of(3, 1, 0, 1));
        assertThat(Arrivals.histogram(List.of(), 100)).isEmpty();
    }
}
