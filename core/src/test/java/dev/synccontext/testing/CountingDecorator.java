package dev.synccontext.testing;

import dev.synccontext.CallbackDecorator;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link CallbackDecorator} that counts the callbacks it was handed (runnables and callables alike) and
 * returns each unchanged: how a test sees which callbacks went through the queued path, the only one a
 * context decorates.
 */
public final class CountingDecorator implements CallbackDecorator {

    private final AtomicInteger decorated = new AtomicInteger();

    /** How many callbacks this decorator was handed so far. */
    public int decorated() {
        return decorated.get();
    }

    @Override
    public Runnable decorate(Runnable callback) {
        decorated.incrementAndGet();
        return callback;
    }

    @Override
    public <T> Callable<T> decorate(Callable<T> callback) {
        decorated.incrementAndGet();
        return callback;
    }
}
