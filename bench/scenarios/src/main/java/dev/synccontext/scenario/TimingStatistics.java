package dev.synccontext.scenario;

import java.util.Arrays;

/**
 * The seed's columns over per-iteration means, computed as JMH computes them: mean, sample standard
 * deviation (n - 1), median, and Error = the half-width of the 99.9% confidence interval of the mean,
 * {@code t(0.9995, n - 1) · s / √n}. With a single sample, StdDev and Error are {@code NaN} (as JMH).
 */
record TimingStatistics(double mean, double error, double stdDev, double median, int n) {

    static final double CONFIDENCE = 0.999;

    static TimingStatistics of(double[] samples) {
        int n = samples.length;
        if (n == 0) {
            throw new IllegalArgumentException("no samples");
        }
        double sum = 0;
        for (double s : samples) {
            sum += s;
        }
        double mean = sum / n;
        double[] sorted = samples.clone();
        Arrays.sort(sorted);
        double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        if (n == 1) {
            return new TimingStatistics(mean, Double.NaN, Double.NaN, median, 1);
        }
        double squares = 0;
        for (double s : samples) {
            squares += (s - mean) * (s - mean);
        }
        double stdDev = Math.sqrt(squares / (n - 1));
        double t = StudentT.quantile(1 - (1 - CONFIDENCE) / 2, n - 1);
        return new TimingStatistics(mean, t * stdDev / Math.sqrt(n), stdDev, median, n);
    }
}
