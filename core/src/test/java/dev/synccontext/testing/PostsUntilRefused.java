package dev.synccontext.testing;

import dev.synccontext.RendererSyncContext;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Producer threads that post to one context, back to back, until it refuses (it was closed or released); each
 * callback they posted counts itself if it runs once a flag is set. What a proof that no accepted callback runs
 * after a context's last callback races the end of the context against: the last callback sets the flag.
 */
public final class PostsUntilRefused {

    private final AtomicInteger ranAfterLast = new AtomicInteger();
    private final List<Thread> producers = new ArrayList<>();

    private PostsUntilRefused() {
    }

    /**
     * Starts {@code count} producers posting to {@code context}; returns once each of them has started. A posted
     * callback that runs while {@code lastRan} is set counts in {@link #ranAfterLast()}.
     */
    public static PostsUntilRefused start(RendererSyncContext context, int count, AtomicBoolean lastRan)
            throws InterruptedException {
        PostsUntilRefused posts = new PostsUntilRefused();
        CountDownLatch producing = new CountDownLatch(count);
        Runnable callback = () -> {
            if (lastRan.get()) {
                posts.ranAfterLast.incrementAndGet();
            }
        };
        for (int p = 0; p < count; p++) {
            Thread producer = new Thread(() -> {
                producing.countDown();
                try {
                    for (;;) {
                        context.post(callback);
                        Thread.onSpinWait();
                    }
                } catch (RejectedExecutionException ended) {
                    // the context was ended: this producer is done
                }
            });
            producer.start();
            posts.producers.add(producer);
        }
        producing.await();
        return posts;
    }

    /** Waits until every producer has been refused. */
    public void join() throws InterruptedException {
        for (Thread producer : producers) {
            producer.join();
        }
    }

    /** The posted callbacks that ran while the flag was set, so far (all of them once the context terminated). */
    public int ranAfterLast() {
        return ranAfterLast.get();
    }
}
