package dev.synccontext.spring;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.registry.ContextProxy;
import dev.synccontext.registry.SyncContextRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.springframework.beans.factory.ObjectFactory;

/**
 * The injectable {@code rendererSyncContext}: an interface-based proxy that resolves, on every call,
 * to the context of the current session, request or WebSocket session, like Spring's scoped proxy,
 * with one difference that matters for this type: <b>inside a callback of one of its contexts it
 * resolves to that very context</b>, on whatever thread the callback runs.
 *
 * <p>Why: queued callbacks run on the executor, where no request is bound, so a plain scoped proxy
 * would throw {@code ScopeNotActiveException} as soon as a callback calls
 * {@code context.post(...)} or {@code context.assertAccess()} through the injected field. Here the
 * callback's own context answers (found with {@link RendererSyncContext#current()}, one thread-local
 * read), which is the only sensible meaning of "my context" inside a callback. Outside callbacks it
 * asks the scope, exactly like a scoped proxy (and fails the same way outside a request); for the
 * session scope, "the scope" is the session part: the session holds a handle, this node
 * holds the context.
 */
public final class ScopedSyncContext implements ContextProxy {

    /** The bean name of the scoped target behind the injected proxy, for the request (and deprecated websocket) scope. */
    public static final String TARGET_BEAN = "scopedTarget.rendererSyncContext";


    private final SyncContextRegistry registry;
    private final String scope;
    private final ObjectFactory<RendererSyncContext> scopedTarget;

    /**
     * A proxy for the contexts of {@code scope} in {@code registry}: the running callback's context when
     * it is one of them, else {@code scopedTarget}'s.
     */
    public ScopedSyncContext(SyncContextRegistry registry, String scope,
            ObjectFactory<RendererSyncContext> scopedTarget) {
        this.registry = registry;
        this.scope = scope;
        this.scopedTarget = scopedTarget;
    }

    /** The context this call is about: the running callback's, if it is one of ours, else the scope's. */
    @Override
    public RendererSyncContext target() {
        RendererSyncContext current = RendererSyncContext.current().orElse(null);
        if (current != null && registry.belongsTo(current, scope)) {
            return current;
        }
        return Objects.requireNonNull(scopedTarget.getObject(), "scoped RendererSyncContext");
    }

    @Override
    public String name() {
        return target().name();
    }

    @Override
    public boolean checkAccess() {
        return target().checkAccess();
    }

    @Override
    public void assertAccess() {
        target().assertAccess();
    }

    @Override
    public CompletableFuture<Void> invokeAsync(Runnable callback) {
        return target().invokeAsync(callback);
    }

    @Override
    public <T> CompletableFuture<T> invokeAsync(Callable<T> callback) {
        return target().invokeAsync(callback);
    }

    @Override
    public <T> CompletableFuture<T> invokeAsyncStage(Callable<? extends CompletionStage<T>> callback) {
        return target().invokeAsyncStage(callback);
    }

    @Override
    public void post(Runnable callback) {
        target().post(callback);
    }

    @Override
    public void execute(Runnable callback) {
        target().execute(callback);
    }

    @Override
    public void send(Runnable callback) {
        target().send(callback);
    }

    @Override
    public int queueDepth() {
        return target().queueDepth();
    }

    @Override
    public long unhandledExceptionCount() {
        return target().unhandledExceptionCount();
    }

    @Override
    public long blockedCallbackCount() {
        return target().blockedCallbackCount();
    }

    @Override
    public boolean isClosed() {
        return target().isClosed();
    }

    @Override
    public void close() {
        target().close();
    }

    @Override
    public void closeForShutdown() {
        target().closeForShutdown();
    }

    @Override
    public void closeAfter(Runnable last) {
        target().closeAfter(last); // the target's own atomic step, not this interface's post-then-close default
    }

    @Override
    public void closeForShutdownAfter(Runnable last) {
        target().closeForShutdownAfter(last);
    }

    @Override
    public boolean awaitTermination(Duration timeout) throws InterruptedException {
        return target().awaitTermination(timeout);
    }

    @Override
    public List<Runnable> closeNow() {
        return target().closeNow();
    }

    @Override
    public String toString() {
        return "RendererSyncContext proxy for the current " + scope; // never resolves: safe in debuggers
    }
}
