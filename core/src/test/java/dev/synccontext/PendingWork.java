package dev.synccontext;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Posts and calls queued on a busy context, kept so that a test can check what became of each: the posts that
 * {@code closeNow()} hands back, the futures it cancels.
 */
public record PendingWork(List<Runnable> posts, List<CompletableFuture<Integer>> futures) {

    /** Queues {@code count} posts and {@code count} calls on {@code context}, each counting in {@code ran}. */
    public static PendingWork queue(RendererSyncContext context, int count, AtomicInteger ran) {
        List<Runnable> posts = new ArrayList<>();
        List<CompletableFuture<Integer>> futures = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Runnable post = ran::incrementAndGet;
            posts.add(post);
            context.post(post);
            futures.add(context.invokeAsync(ran::incrementAndGet));
        }
        return new PendingWork(List.copyOf(posts), List.copyOf(futures));
    }
}
