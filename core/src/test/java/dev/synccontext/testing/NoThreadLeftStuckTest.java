package dev.synccontext.testing;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * The premise of every test that registers {@link NoThreadLeftStuck}: its teardown fails on a leaked
 * thread, naming it and its stack, and passes when everything it watches has ended. Driven through
 * {@link NoThreadLeftStuck#tearDown}, what its {@code afterEach} runs (junit-platform-testkit is not in
 * the build's repository).
 */
class NoThreadLeftStuckTest {

    private static final Duration SHORT_GUARD = Duration.ofMillis(200);

    @Test
    void aWatchedThreadStillAliveAfterTheTestFailsNamingTheThreadAndItsStack() throws Exception {
        NoThreadLeftStuck guard = new NoThreadLeftStuck(SHORT_GUARD);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch waiting = new CountDownLatch(1);
        guard.start("leaked-worker", () -> {
            waiting.countDown();
            awaitUninterruptibly(release);
        });
        try {
            waiting.await();
            assertThatThrownBy(() -> guard.tearDown("premise()"))
                    .isInstanceOf(AssertionError.class)
                    .hasMessageContaining("premise() left thread \"leaked-worker\" alive (WAITING)")
                    .hasMessageContaining("java.util.concurrent.CountDownLatch.await(")
                    .hasMessageContaining("NoThreadLeftStuckTest.awaitUninterruptibly");
        } finally {
            release.countDown();
        }
    }

    @Test
    void aPoolThreadThatIgnoresShutdownNowFailsNamingThePoolAndItsThread() throws Exception {
        NoThreadLeftStuck guard = new NoThreadLeftStuck(SHORT_GUARD);
        ExecutorService pool = guard.fixedPool(1, "stubborn-");
        AtomicBoolean release = new AtomicBoolean();
        CountDownLatch running = new CountDownLatch(1);
        pool.execute(() -> {
            running.countDown();
            while (!release.get()) {
                LockSupport.parkNanos(1_000_000); // ignores the interrupt of shutdownNow
            }
        });
        try {
            running.await();
            assertThatThrownBy(() -> guard.tearDown("pool()"))
                    .isInstanceOf(AssertionError.class)
                    .hasMessageContaining("thread \"stubborn-1\" alive")
                    .hasMessageContaining("pools not terminated");
        } finally {
            release.set(true);
        }
    }

    @Test
    void threadsAndPoolsThatEndPassAndClosingRunsFirst() throws Exception {
        NoThreadLeftStuck guard = new NoThreadLeftStuck(Duration.ofSeconds(30));
        CountDownLatch release = new CountDownLatch(1);
        guard.start("released-by-close", () -> awaitUninterruptibly(release));
        guard.fixedPool(2).execute(() -> awaitUninterruptibly(release));
        guard.closing(release::countDown);

        assertThatCode(() -> guard.tearDown("clean()")).doesNotThrowAnyException();
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        while (true) {
            try {
                latch.await();
                return;
            } catch (InterruptedException ignored) {
                // a leaked thread that ignores interrupts is what the guard must catch
            }
        }
    }
}
