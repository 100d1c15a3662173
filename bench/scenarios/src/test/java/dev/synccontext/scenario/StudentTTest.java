package dev.synccontext.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The statistics behind the seed's columns match published tables and JMH's definitions. */
class StudentTTest {

    @Test
    void quantilesMatchPublishedTableValues() {
        // t(0.9995, df), from standard two-sided 99.9% tables.
        assertThat(StudentT.quantile(0.9995, 1)).isCloseTo(636.619, within(0.01));
        assertThat(StudentT.quantile(0.9995, 4)).isCloseTo(8.610, within(0.001));
        assertThat(StudentT.quantile(0.9995, 9)).isCloseTo(4.781, within(0.001));
        assertThat(StudentT.quantile(0.9995, 30)).isCloseTo(3.646, within(0.001));
        assertThat(StudentT.quantile(0.975, 10)).isCloseTo(2.228, within(0.001));
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
