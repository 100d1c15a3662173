package dev.synccontext;

import java.util.concurrent.CompletableFuture;

/**
 * The one already-completed {@code CompletableFuture<Void>} that every successful inline or nested
 * {@code invokeAsync(Runnable)} returns, so that the idle path allocates nothing. Sharing is safe
 * because a completed future cannot be completed or cancelled again, and the only methods that could
 * change its result, {@code obtrude*}, throw here.
 */
final class SharedDoneFuture extends CompletableFuture<Void> {

    static final CompletableFuture<Void> INSTANCE = new SharedDoneFuture();

    private SharedDoneFuture() {
        super.complete(null);
    }

    @Override
    public void obtrudeValue(Void value) {
        throw new UnsupportedOperationException(
                "This completed future is shared by every inline invokeAsync call; it cannot be obtruded");
    }

    @Override
    public void obtrudeException(Throwable ex) {
        throw new UnsupportedOperationException(
                "This completed future is shared by every inline invokeAsync call; it cannot be obtruded");
    }
}
