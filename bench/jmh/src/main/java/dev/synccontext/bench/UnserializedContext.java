package dev.synccontext.bench;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The floor, not an alternative: every call, {@code post} included, runs its callback at once on the
 * caller's thread, with no serialization, no queue and no hand-off. What a scenario costs on it is what
 * the scenario's own loop costs (its futures, its checks, its joins on already-completed futures), so
 * {@code -p mode=unserialized} shows how much of a figure no context can remove. It only passes the
 * scenarios whose calls come from one thread (not {@code Contended}, which it would race), and
 * {@link #checkAccess()} is always true, which is what it would be if every call ran nested.
 */
final class UnserializedContext extends AlternativeContext {

    UnserializedContext() {
        super("unserialized");
    }

    @Override
    CompletableFuture<Void> invokeRunnable(Runnable callback) {
        return runNow(callback);
    }

    @Override
    public <T> CompletableFuture<T> invokeAsyncStage(Callable<? extends CompletionStage<T>> callback) {
        return callNow(callback);
    }

    @Override
    public void post(Runnable callback) {
        callback.run();
    }

    @Override
    public boolean checkAccess() {
        return true;
    }
}
