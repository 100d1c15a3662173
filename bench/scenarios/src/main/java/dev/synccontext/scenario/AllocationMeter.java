package dev.synccontext.scenario;

import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Bytes allocated by <em>all</em> threads between two readings, from HotSpot's per-thread allocation
 * counters ({@code com.sun.management.ThreadMXBean#getThreadAllocatedBytes(long[])}), so that work a
 * context hands to its executor is counted too.
 *
 * <p>It is an <b>estimate</b>: a thread that ends between the readings takes its bytes with it, other
 * threads of the JVM (a web server, GC-unrelated housekeeping) are counted as well, and the counters
 * advance by TLAB refills on some JVMs. Run on a quiet JVM; read it as "about", never as exact.
 */
final class AllocationMeter {

    private static final com.sun.management.@Nullable ThreadMXBean THREADS = threadBean();

    /** What taking two readings back to back reports by itself, subtracted from every delta. */
    private final long overhead;

    AllocationMeter() {
        long min = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            Map<Long, Long> before = read();
            min = Math.min(min, delta(before, read()));
        }
        overhead = supported() ? min : 0;
    }

    static boolean supported() {
        return THREADS != null;
    }

    /** A reading: allocated bytes per live thread id. Empty when the JVM cannot tell. */
    Map<Long, Long> read() {
        if (THREADS == null) {
            return Map.of();
        }
        long[] ids = THREADS.getAllThreadIds();
        long[] bytes = THREADS.getThreadAllocatedBytes(ids);
        Map<Long, Long> reading = new HashMap<>(ids.length * 2);
        for (int i = 0; i < ids.length; i++) {
            if (bytes[i] >= 0) {
                reading.put(ids[i], bytes[i]);
            }
        }
        return reading;
    }

    /** Bytes allocated between the two readings over all threads, minus the meter's own; -1 if unknown. */
    long since(Map<Long, Long> before) {
        if (THREADS == null) {
            return -1;
        }
        return Math.max(0, delta(before, read()) - overhead);
    }

    private static long delta(Map<Long, Long> before, Map<Long, Long> after) {
        long total = 0;
        for (Map.Entry<Long, Long> e : after.entrySet()) {
            total += e.getValue() - before.getOrDefault(e.getKey(), 0L);
        }
        return total;
    }

    private static com.sun.management.@Nullable ThreadMXBean threadBean() {
        try {
            if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean bean
                    && bean.isThreadAllocatedMemorySupported()) {
                if (!bean.isThreadAllocatedMemoryEnabled()) {
                    bean.setThreadAllocatedMemoryEnabled(true);
                }
                return bean;
            }
        } catch (RuntimeException | LinkageError unavailable) {
            // No jdk.management module: allocation is reported as unknown.
        }
        return null;
    }
}
