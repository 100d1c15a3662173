package dev.synccontext.spring;

import dev.synccontext.CallbackDecorator;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * Several {@link CallbackDecorator} beans as one, in their {@code @Order}: each decorates what the one
 * before it returned, so the last one runs outermost (first), as Spring's {@code CompositeTaskDecorator}
 * does with task decorators.
 */
public final class CompositeCallbackDecorator implements CallbackDecorator {

    private final CallbackDecorator[] decorators;

    public CompositeCallbackDecorator(List<CallbackDecorator> decorators) {
        this.decorators = decorators.toArray(CallbackDecorator[]::new);
    }

    @Override
    public Runnable decorate(Runnable callback) {
        Runnable decorated = callback;
        for (CallbackDecorator decorator : decorators) {
            decorated = decorator.decorate(decorated);
        }
        return decorated;
    }

    @Override
    public <T> Callable<T> decorate(Callable<T> callback) {
        Callable<T> decorated = callback;
        for (CallbackDecorator decorator : decorators) {
            decorated = decorator.decorate(decorated);
        }
        return decorated;
    }

    @Override
    public String toString() {
        return "CompositeCallbackDecorator" + List.of(decorators);
    }
}
