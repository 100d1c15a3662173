package dev.synccontext;

import java.util.concurrent.CompletableFuture;

/**
 * Created on the first {@code close}, {@code closeNow} or {@code awaitTermination}, so an open context
 * pays one null field for it. Completes when the context is closed and its count of accepted,
 * unfinished callbacks reaches zero.
 */
final class Termination {

    final CompletableFuture<Void> terminated = new CompletableFuture<>();

    /**
     * The thread aborting the queue right now, or null. Only compared with the current thread, which
     * can see its own reference here only while it aborts (as with the context's owner token).
     */
    Thread aborting;
}
