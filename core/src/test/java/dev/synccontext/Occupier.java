package dev.synccontext;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Holds a context busy from a separate thread: its callback claims the idle context inline and waits
 * on a latch, so that every other submission is queued behind it, deterministically. Works on any
 * {@link RendererSyncContext} implementation; shared with the other modules' tests through core's
 * test jar.
 */
public final class Occupier implements AutoCloseable {

    /** The thread whose inline callback holds the context. */
    public final Thread thread;
    /** Completes when the occupying callback has returned. */
    public final CompletableFuture<Void> finished = new CompletableFuture<>();
    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);

    private Occupier(RendererSyncContext ctx) {
        thread = new Thread(() -> {
            ctx.invokeAsync(() -> {
                entered.countDown();
                awaitUninterruptibly(release);
            }).whenComplete((v, e) -> finished.complete(null));
        }, "occupier");
        thread.start();
        awaitUninterruptibly(entered);
    }

    /** Returns once the context is busy with the occupier's callback. */
    public static Occupier occupy(RendererSyncContext ctx) {
        return new Occupier(ctx);
    }

    /** Lets the occupying callback return (the context then drains what queued behind it). */
    public void release() {
        release.countDown();
    }

    /** Releases the context and waits (up to 10 s) for the occupying thread to end. */
    @Override
    public void close() {
        release();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits up to 30 s for {@code latch}, failing the test if it is not released. */
    public static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                if (!latch.await(30, TimeUnit.SECONDS)) {
                    throw new AssertionError("latch not released within 30 s");
                }
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
