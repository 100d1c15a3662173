package dev.synccontext.testing;

import java.util.concurrent.ExecutorService;

/**
 * The threads a test runs its contexts' executor on; a test runs once per kind with
 * {@code @EnumSource(ThreadKind.class)}.
 */
public enum ThreadKind {
    /** A fixed pool of eight platform threads. */
    PLATFORM,
    /** A virtual thread per task; the test is skipped below Java 21. */
    VIRTUAL;

    /** A new executor of this kind, shut down after the test by {@code threads}, which waits for it to end. */
    public ExecutorService executor(NoThreadLeftStuck threads, String threadNamePrefix) {
        return this == PLATFORM ? threads.fixedPool(8, threadNamePrefix) : threads.virtualThreadPerTask();
    }
}
