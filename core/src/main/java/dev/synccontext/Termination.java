package dev.synccontext;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Created on the first {@code close}, {@code closeNow} or {@code awaitTermination}, so an open context
 * pays one null field for it. Completes when the context is closed and its count of accepted,
 * unfinished callbacks reaches zero; collects the posts that {@code closeNow()} aborted.
 */
final class Termination {

    final CompletableFuture<Void> terminated = new CompletableFuture<>();

    private final List<Runnable> abortedPosts = new ArrayList<>();

    /**
     * The thread aborting the queue right now, or null. Only compared with the current thread, which
     * can see its own reference here only while it aborts (as with the context's owner token).
     */
    Thread aborting;

    synchronized void addAbortedPost(Runnable post) {
        abortedPosts.add(post);
    }

    /** Hands the aborted posts to the first caller that asks; later callers get an empty list. */
    synchronized List<Runnable> takeAbortedPosts() {
        List<Runnable> taken = List.copyOf(abortedPosts);
        abortedPosts.clear();
        return taken;
    }
}
