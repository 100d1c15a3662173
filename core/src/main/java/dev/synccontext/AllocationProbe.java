package dev.synccontext;

import java.lang.management.ManagementFactory;
import org.jspecify.annotations.Nullable;

/**
 * Bytes allocated by the current thread, from HotSpot's per-thread TLAB accounting. Used only for
 * sampled callbacks, because one reading costs tens of nanoseconds.
 */
final class AllocationProbe {

    private static final com.sun.management.@Nullable ThreadMXBean THREADS = threadBean();

    private AllocationProbe() {
    }

    /** Allocated bytes of the current thread so far, or -1 when the JVM cannot tell. */
    static long currentThreadAllocatedBytes() {
        return THREADS == null ? -1 : THREADS.getCurrentThreadAllocatedBytes();
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
            // No jdk.management module, or a security manager said no: report -1.
        }
        return null;
    }
}
