package dev.synccontext.testing;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A test whose contexts drain on one small fixed pool: the pool is shut down after each test, and
 * {@link NoThreadLeftStuck} fails the test if one of its threads is still inside a callback.
 */
public abstract class PooledTest {

    @RegisterExtension
    protected final NoThreadLeftStuck threads;

    protected final ExecutorService pool;

    /** Two threads: one drains, one is free to prove a callback does not run inline. */
    protected PooledTest() {
        this(2);
    }

    protected PooledTest(int poolThreads) {
        this(poolThreads, new NoThreadLeftStuck());
    }

    /** A pool watched with {@code hangGuard} instead of the default guard. */
    protected PooledTest(int poolThreads, Duration hangGuard) {
        this(poolThreads, new NoThreadLeftStuck(hangGuard));
    }

    private PooledTest(int poolThreads, NoThreadLeftStuck threads) {
        this.threads = threads;
        this.pool = threads.fixedPool(poolThreads);
    }
}
