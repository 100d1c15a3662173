package dev.synccontext.scenario;

/**
 * One row of the reference table. Times are microseconds per invocation (one invocation = the
 * scenario's whole loop); {@code errorMicros} is the 99.9% confidence half-width of the mean (Student
 * t, as JMH); {@code errorMicros} and {@code stdDevMicros} are {@code NaN} with a single measured
 * iteration. {@code allocatedBytes} is bytes per invocation summed over all threads of the JVM (an
 * estimate, see {@code AllocationMeter}), or -1 where the JVM cannot tell. {@code iterations} is the
 * number of measured iterations behind the row.
 */
public record BenchmarkRow(String method, String mode, double meanMicros, double errorMicros,
        double stdDevMicros, double medianMicros, double allocatedBytes, int iterations) {
}
