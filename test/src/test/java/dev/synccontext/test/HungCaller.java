package dev.synccontext.test;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A callback that does not return, on a thread the test controls: an idle context runs an {@code invokeAsync}
 * callback inline on the caller's thread, so a caller thread of its own blocks inside the callback, as the
 * context's owner, until the test lets it go.
 */
public final class HungCaller {

    private HungCaller() {
    }

    /**
     * Starts the thread {@code threadName}, whose callback of {@code context} waits for {@code release} (at most
     * 30 s; an interrupt ends the wait too, and stays set); returns once the callback has started.
     */
    public static Thread start(RendererSyncContext context, String threadName, CountDownLatch release)
            throws InterruptedException {
        return start(context, threadName, () -> awaitQuietly(release));
    }

    /**
     * Starts the thread {@code threadName}, whose callback of {@code context} runs {@code blocking} (the test's
     * wait on its release); returns once the callback has started.
     */
    public static Thread start(RendererSyncContext context, String threadName, Runnable blocking)
            throws InterruptedException {
        CountDownLatch entered = new CountDownLatch(1);
        Thread caller = new Thread(() -> context.invokeAsync(() -> {
            entered.countDown();
            blocking.run();
        }), threadName);
        caller.start();
        assertThat(entered.await(10, TimeUnit.SECONDS)).as("the callback started").isTrue();
        return caller;
    }

    private static void awaitQuietly(CountDownLatch release) {
        try {
            release.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits up to 10 s for {@code caller} to end, and fails if it has not. */
    public static void join(Thread caller) throws InterruptedException {
        caller.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(caller.isAlive()).as(caller.getName() + " ended").isFalse();
    }
}
