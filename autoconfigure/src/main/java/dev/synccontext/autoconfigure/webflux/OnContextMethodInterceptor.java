package dev.synccontext.autoconfigure.webflux;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.autoconfigure.handler.ContextUnavailableException;
import dev.synccontext.autoconfigure.session.WebSessionContexts;
import java.lang.reflect.Method;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.ProxyMethodInvocation;
import org.springframework.core.ReactiveAdapter;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.web.filter.reactive.ServerWebExchangeContextFilter;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Runs an {@code @OnContext} WebFlux handler method's body on its {@code WebSession}'s context (see
 * {@link OnContextHandlers} for the guarantees). Called by the controller's proxy when WebFlux invokes the
 * method (after binding and validation), it returns at once a publisher of the method's own reactive type;
 * when WebFlux subscribes to it, the body runs on the context (inline when idle, queued when busy) and the
 * publisher the body returned is then subscribed in its place.
 */
final class OnContextMethodInterceptor implements MethodInterceptor {

    private final Supplier<WebSessionContexts> contexts;
    private final ReactiveAdapterRegistry adapters;

    /** {@code contexts} is asked on each call: the post-processor that makes proxies exists before it. */
    OnContextMethodInterceptor(Supplier<WebSessionContexts> contexts, ReactiveAdapterRegistry adapters) {
        this.contexts = contexts;
        this.adapters = adapters;
    }

    @Override
    public @Nullable Object invoke(MethodInvocation invocation) {
        Method method = invocation.getMethod();
        ReactiveAdapter adapter = adapters.getAdapter(method.getReturnType());
        if (adapter == null || !adapter.getDescriptor().isDeferred()) {
            throw new IllegalStateException(OnContextHandlers.notDeferred(method)); // refused at startup already
        }
        // A clone per invocation: the body may run later on another thread, and only once per subscription.
        MethodInvocation body = ((ProxyMethodInvocation) invocation).invocableClone();
        Mono<Object> assembled = Mono.deferContextual(view -> {
            ServerWebExchange exchange = ServerWebExchangeContextFilter.getExchange(view).orElse(null);
            if (exchange == null) {
                return Mono.error(new IllegalStateException("@OnContext method " + method + " was subscribed outside"
                        + " a WebFlux request (no ServerWebExchange in the Reactor context, which the starter's"
                        + " ServerWebExchangeContextFilter puts there): it has no WebSession, so no context."));
            }
            return contexts.get().contextOf(exchange).flatMap(context -> run(context, body, method));
        }).cache(); // resubscribing replays what the body returned, as a plain method's publisher would be reused
        return adapter.isMultiValue()
                ? adapter.fromPublisher(assembled.flatMapMany(value -> adapter.toPublisher(value)))
                : adapter.fromPublisher(assembled.flatMap(value -> Mono.from(adapter.toPublisher(value))));
    }

    private static Mono<Object> run(RendererSyncContext context, MethodInvocation invocation, Method method) {
        Body body = new Body(invocation);
        CompletableFuture<@Nullable Object> future = context.invokeAsync(body);
        boolean inline = future.isDone();
        // A client gone away does not cancel a body (suppressCancel): it runs, as it would have without the annotation.
        Mono<Object> outcome = Mono.fromFuture(future, true).onErrorMap(failure -> body.started ? failure
                : new ContextUnavailableException(context.name(), method.getDeclaringClass().getSimpleName() + "#"
                        + method.getName(), unwrap(failure)));
        // A queued body's future completes inside its callback: leave the context before the body's publisher is
        // subscribed, so that the rest of the response never holds it.
        return inline ? outcome : outcome.publishOn(Schedulers.parallel());
    }

    private static Throwable unwrap(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }

    /** The body as a callback; {@code started} is read after its future completed. */
    private static final class Body implements Callable<@Nullable Object> {

        private final MethodInvocation invocation;
        private volatile boolean started;

        Body(MethodInvocation invocation) {
            this.invocation = invocation;
        }

        @Override
        public @Nullable Object call() throws Exception {
            started = true;
            try {
                return invocation.proceed(); // the one place the handler method itself runs
            } catch (Exception | Error thrown) {
                throw thrown;
            } catch (Throwable other) {
                throw new IllegalStateException("@OnContext handler " + invocation.getMethod() + " failed", other);
            }
        }
    }

}
