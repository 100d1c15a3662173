package dev.synccontext;

import java.util.concurrent.Callable;

/**
 * Wraps a callback at the moment it is queued, on the submitting thread, so that it can carry
 * something of that thread (MDC, security or observation context) over to the drain thread.
 * Callbacks that run on the submitter's own thread (inline, nested, {@code send}) are never wrapped.
 *
 * <p>Implementations must be thread-safe and fast. What a decorator throws reaches the submitter:
 * thrown by {@code post}/{@code execute}, or in the future of {@code invokeAsync*}.
 */
public interface CallbackDecorator {

    /** A runnable that runs {@code callback} with whatever this decorator captured now. */
    Runnable decorate(Runnable callback);

    /** A callable that calls {@code callback} with whatever this decorator captured now. */
    <T> Callable<T> decorate(Callable<T> callback);
}
