package dev.synccontext.test.spring;

import dev.synccontext.CallbackDecorator;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * The application's decorators, in their {@code @Order} as the starter composes them, wrapped by the
 * kit's: a queued callback carries what the application propagates and records its submit site.
 */
final class KitOutermostDecorator implements CallbackDecorator {

    private final CallbackDecorator kit;
    private final List<CallbackDecorator> application;

    KitOutermostDecorator(CallbackDecorator kit, List<CallbackDecorator> application) {
        this.kit = kit;
        this.application = List.copyOf(application);
    }

    @Override
    public Runnable decorate(Runnable callback) {
        Runnable decorated = callback;
        for (CallbackDecorator decorator : application) {
            decorated = decorator.decorate(decorated);
        }
        return kit.decorate(decorated);
    }

    @Override
    public <T> Callable<T> decorate(Callable<T> callback) {
        Callable<T> decorated = callback;
        for (CallbackDecorator decorator : application) {
            decorated = decorator.decorate(decorated);
        }
        return kit.decorate(decorated);
    }
}
