package dev.synccontext;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The child JVM of {@link WatchdogUnderDebuggerTest}: one context with a 1 s blocked threshold runs one
 * callback for {@code args[0]} ms of wall time (parking in 10 ms steps, so a JVM suspended meanwhile
 * resumes inside it), printing {@code STARTED}, any {@code REPORTED <ms>} the watchdog makes, and
 * {@code EXIT}.
 */
public final class HeldJvmProbe {

    private HeldJvmProbe() {
    }

    public static void main(String[] args) throws Exception {
        long holdNanos = TimeUnit.MILLISECONDS.toNanos(Long.parseLong(args[0]));
        RendererSyncContext ctx = RendererSyncContext.builder().name("held").blockedThreshold(Duration.ofSeconds(1))
                .observer(new SyncContextObserver() {
                    @Override
                    public void callbackBlocked(BlockedCallback blocked) {
                        System.out.println("REPORTED " + blocked.runningFor().toMillis());
                    }
                }).build();
        ctx.post(() -> {
            long start = System.nanoTime();
            System.out.println("STARTED");
            while (System.nanoTime() - start < holdNanos) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            }
        });
        ctx.close();
        ctx.awaitTermination(Duration.ofMinutes(1));
        System.out.println("EXIT");
    }
}
