package dev.synccontext.registry;

/**
 * A {@link SyncContextRegistry} that is shutting down (a {@link ShutdownDrain} began, or it was closed)
 * refused to create a context. Counted in {@link SyncContextRegistry#refusedCreations()}. Callbacks
 * submitted to contexts the drain closed are refused by those contexts themselves, with a
 * {@link dev.synccontext.ContextShuttingDownException} (a {@code RejectedExecutionException} naming the context
 * and saying that the application is shutting down), counted as {@code REJECTED} in their scope's statistics.
 * An {@link IllegalStateException}, as a closed registry's refusal always was.
 */
public class ShuttingDownException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    public ShuttingDownException(String message) {
        super(message);
    }
}
