package dev.synccontext.stress;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.testing.PooledTest;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * What every fault-injection test shares: a two-thread pool watched for {@link #HANG_GUARD}, and a class-wide
 * hang guard so a deadlocked proof fails instead of stalling the build.
 */
// Hang guard only, never a speed bound.
@Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
abstract class FaultInjectionTest extends PooledTest {

    static final Duration HANG_GUARD = Duration.ofSeconds(30);

    FaultInjectionTest() {
        super(2, HANG_GUARD);
    }

    /** A callback that says it is running, then holds its context until {@link #release()}. */
    static final class Hold implements Runnable {

        private final CountDownLatch inside = new CountDownLatch(1);
        private final CountDownLatch release = new CountDownLatch(1);

        @Override
        public void run() {
            inside.countDown();
            await(release);
        }

        void awaitInside() {
            await(inside);
        }

        void release() {
            release.countDown();
        }
    }

    /** Starts a thread "owner" that runs {@code hold} on {@code ctx}; returns once the callback holds the context. */
    Thread startOwnerHolding(RendererSyncContext ctx, Hold hold) {
        Thread owner = threads.start("owner", () -> ctx.invokeAsync(hold).join());
        hold.awaitInside();
        return owner;
    }

    /** Waits for {@code latch}; fails the test instead of hanging past {@link #HANG_GUARD}. */
    static void await(CountDownLatch latch) {
        try {
            if (!latch.await(HANG_GUARD.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("hang guard: latch not released within " + HANG_GUARD);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** Waits until {@code depth} callbacks are queued (a producer reserves before it returns or parks). */
    static void awaitQueueDepth(RendererSyncContext ctx, int depth) {
        long deadline = System.nanoTime() + HANG_GUARD.toNanos();
        while (ctx.queueDepth() < depth) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("hang guard: queueDepth of " + ctx + " never reached " + depth);
            }
            Thread.onSpinWait();
        }
    }
}
