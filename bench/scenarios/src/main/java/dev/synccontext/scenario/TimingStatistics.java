package dev.synccontext.scenario;

import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.descriptive.DescriptiveStatistics;

/**
 * The reference table's columns over per-iteration means, computed as JMH computes them (with the same library,
 * Apache Commons Math): mean, sample standard deviation (n - 1), median, and Error = the half-width of
 * the 99.9% confidence interval of the mean, {@code t(0.9995, n - 1) · s / √n}. With a single sample,
 * StdDev and Error are {@code NaN} (as JMH).
 */
record TimingStatistics(double mean, double error, double stdDev, double median, int n) {

    static final double CONFIDENCE = 0.999;

    static TimingStatistics of(double[] samples) {
        int n = samples.length;
        if (n == 0) {
            throw new IllegalArgumentException("no samples");
        }
        DescriptiveStatistics statistics = new DescriptiveStatistics(samples);
        double mean = statistics.getMean();
        double median = statistics.getPercentile(50);
        if (n == 1) {
            return new TimingStatistics(mean, Double.NaN, Double.NaN, median, 1);
        }
        double stdDev = statistics.getStandardDeviation();
        double t = new TDistribution(n - 1).inverseCumulativeProbability(1 - (1 - CONFIDENCE) / 2);
        return new TimingStatistics(mean, t * stdDev / Math.sqrt(n), stdDev, median, n);
    }
}
