package dev.synccontext.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The statistics behind the reference table's columns match published tables and JMH's definitions. */
class TimingStatisticsTest {

    @Test
    void errorUsesTheTQuantileOfPublishedTables() {
        // t(0.9995, df) from standard two-sided 99.9% tables: 8.610 for df = 4, 4.781 for df = 9.
        double[] five = {10, 12, 11, 13, 9};
        assertThat(TimingStatistics.of(five).error()).isCloseTo(8.610 * Math.sqrt(2.5 / 5), within(1e-3));
        double[] ten = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        double s = Math.sqrt(55.0 / 6); // sample variance of 1..10 = 9.1667
        assertThat(TimingStatistics.of(ten).error()).isCloseTo(4.781 * s / Math.sqrt(10), within(1e-3));
    }

    @Test
    void errorIsTheHalfWidthOfThe999PercentIntervalAsJmhComputesIt() {
        double[] samples = {10, 12, 11, 13, 9};
        TimingStatistics stats = TimingStatistics.of(samples);
        assertThat(stats.mean()).isEqualTo(11.0);
        assertThat(stats.median()).isEqualTo(11.0);
        assertThat(stats.stdDev()).isCloseTo(Math.sqrt(2.5), within(1e-12));
        assertThat(stats.error()).isCloseTo(8.610 * Math.sqrt(2.5) / Math.sqrt(5), within(1e-3));
    }

    @Test
    void medianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
        assertThat(TimingStatistics.of(new double[] {4, 1, 3, 2}).median()).isEqualTo(2.5);
    }

    @Test
    void aSingleSampleHasNoSpreadLikeJmh() {
        TimingStatistics stats = TimingStatistics.of(new double[] {7});
        assertThat(stats.mean()).isEqualTo(7);
        assertThat(stats.error()).isNaN();
        assertThat(stats.stdDev()).isNaN();
    }
}
