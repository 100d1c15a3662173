package dev.synccontext.lincheck;

import dev.synccontext.BlockedCallback;
import dev.synccontext.RendererSyncContext;
import dev.synccontext.SyncContextObserver;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Parks the JVM-wide watchdog thread for the length of a model-checking run.
 *
 * <p>Lincheck instruments every class, also for threads it does not manage; the watchdog thread
 * scanning {@code CallbackFrame}s while Lincheck restores its memory snapshot makes Lincheck fail
 * with a {@code ConcurrentModificationException} inside {@code SnapshotTracker.restoreValues}. So
 * before a run, a helper callback blocks long enough to be reported, and the observer that receives
 * the report keeps the watchdog thread waiting until {@link #close()}.
 */
final class WatchdogFreeze implements AutoCloseable {

    private final CountDownLatch release = new CountDownLatch(1);
    private final Thread helper;

    private WatchdogFreeze(Thread helper) {
        this.helper = helper;
    }

    static WatchdogFreeze engage() throws InterruptedException {
        CountDownLatch watchdogParked = new CountDownLatch(1);
        CountDownLatch[] releaseRef = new CountDownLatch[1];
        WatchdogFreeze[] self = new WatchdogFreeze[1];
        SyncContextObserver freezer = new SyncContextObserver() {
            @Override
            public void callbackBlocked(BlockedCallback blocked) {
                watchdogParked.countDown();
                try {
                    releaseRef[0].await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        RendererSyncContext ctx = RendererSyncContext.builder()
                .name("lincheck-watchdog-freeze")
                .executor(Runnable::run)
                .blockedThreshold(Duration.ofMillis(20))
                .observer(freezer)
                .build();
        Thread helper = new Thread(() -> ctx.invokeAsync(() -> {
            try {
                watchdogParked.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }).join(), "lincheck-watchdog-freeze");
        self[0] = new WatchdogFreeze(helper);
        releaseRef[0] = self[0].release;
        helper.setDaemon(true);
        helper.start();
        if (!watchdogParked.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the watchdog did not report the helper callback within 60 s");
        }
        helper.join();
        return self[0];
    }

    @Override
    public void close() {
        release.countDown();
    }
}
