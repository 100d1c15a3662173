package dev.synccontext.spring.webflux;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.handler.AnswerBarrier;
import dev.synccontext.spring.handler.ContextUnavailableException;
import dev.synccontext.spring.handler.coroutines.SuspendingBodies;
import dev.synccontext.spring.session.WebSessionContexts;
import java.lang.reflect.Method;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.springframework.aop.ProxyMethodInvocation;
import org.springframework.core.ReactiveAdapter;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.web.filter.reactive.ServerWebExchangeContextFilter;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Runs an {@code @OnContext} WebFlux handler method's body on its {@code WebSession}'s context (see
 * {@link OnContextHandlers} for the guarantees). Called by the controller's proxy when WebFlux invokes the
 * method (after binding and validation), it returns at once a publisher of the method's own reactive type;
 * when WebFlux subscribes to it, the body runs on the context (inline when idle, queued when busy) and the
 * publisher the body returned is then subscribed in its place. A Kotlin {@code suspend} method instead runs as a
 * coroutine on the context's dispatcher, which the proxy awaits ({@link SuspendingBodies}).
 */
final class OnContextMethodInterceptor implements MethodInterceptor {

    private final Supplier<WebSessionContexts> contexts;
    private final ReactiveAdapterRegistry adapters;
    private final Supplier<AnswerBarrier[]> barriers;

    /**
     * {@code contexts} and {@code barriers} are asked on each call: the post-processor that makes proxies exists
     * before them.
     */
    OnContextMethodInterceptor(Supplier<WebSessionContexts> contexts, ReactiveAdapterRegistry adapters,
            Supplier<AnswerBarrier[]> barriers) {
        this.contexts = contexts;
        this.adapters = adapters;
        this.barriers = barriers;
    }

    @Override
    public @Nullable Object invoke(MethodInvocation invocation) {
        Method method = invocation.getMethod();
        if (SuspendingBodies.isSuspending(method)) {
            return suspending((ProxyMethodInvocation) invocation, method);
        }
        ReactiveAdapter adapter = adapters.getAdapter(method.getReturnType());
        if (adapter == null || !adapter.getDescriptor().isDeferred()) {
            throw new IllegalStateException(OnContextHandlers.notDeferred(method)); // refused at startup already
        }
        // A clone per invocation: the body may run later on another thread, and only once per subscription.
        MethodInvocation body = ((ProxyMethodInvocation) invocation).invocableClone();
        Mono<Object> assembled = Mono.deferContextual(view -> {
            ServerWebExchange exchange = ServerWebExchangeContextFilter.getExchange(view).orElse(null);
            if (exchange == null) {
                return Mono.error(noExchange(method));
            }
            return contexts.get().contextOf(exchange).flatMap(context -> run(context, body, method));
        }).cache(); // resubscribing replays what the body returned, as a plain method's publisher would be reused
        return adapter.isMultiValue()
                ? adapter.fromPublisher(assembled.flatMapMany(value -> adapter.toPublisher(value)))
                : adapter.fromPublisher(assembled.flatMap(value -> Mono.from(adapter.toPublisher(value))));
    }

    /**
     * A Kotlin {@code suspend} method: returns, for the proxy to await with the caller's continuation, a
     * publisher that finds the WebSession's context and then proceeds with the method as a coroutine on that
     * context's dispatcher ({@link SuspendingBodies}).
     */
    private Object suspending(ProxyMethodInvocation invocation, Method method) {
        ProxyMethodInvocation body = (ProxyMethodInvocation) invocation.invocableClone();
        String handler = method.getDeclaringClass().getSimpleName() + "#" + method.getName();
        Mono<RendererSyncContext> context = Mono.deferContextual(view -> {
            ServerWebExchange exchange = ServerWebExchangeContextFilter.getExchange(view).orElse(null);
            return exchange == null ? Mono.error(noExchange(method)) : contexts.get().contextOf(exchange);
        });
        if (SuspendingBodies.returnsFlow(method)) {
            return context.flatMapMany(on -> Flux.defer(() -> proceed(on, body, handler)));
        }
        return context.flatMap(on -> Mono.defer(() -> Mono.from(proceed(on, body, handler))));
    }

    private Publisher<?> proceed(RendererSyncContext context, ProxyMethodInvocation body, String handler) {
        AnswerBarrier[] all = barriers.get();
        try {
            return SuspendingBodies.proceed(context, body, handler, (on, name) -> {
                for (AnswerBarrier barrier : all) {
                    barrier.beforeAnswer(on, name);
                }
            });
        } catch (Throwable failure) {
            return Mono.error(failure);
        }
    }

    private static IllegalStateException noExchange(Method method) {
        return new IllegalStateException("@OnContext method " + method + " was subscribed outside a WebFlux request (no"
                + " ServerWebExchange in the Reactor context, which the starter's ServerWebExchangeContextFilter puts"
                + " there): it has no WebSession, so no context.");
    }

    private Mono<Object> run(RendererSyncContext context, MethodInvocation invocation, Method method) {
        Body body = new Body(invocation, context, barriers.get());
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

    private static String handlerName(Method method) {
        return method.getDeclaringClass().getSimpleName() + "#" + method.getName() + "()";
    }

    private static Throwable unwrap(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }

    /** The body as a callback; {@code started} is read after its future completed. */
    private static final class Body implements Callable<@Nullable Object> {

        private final MethodInvocation invocation;
        private final RendererSyncContext context;
        private final AnswerBarrier[] barriers;
        private volatile boolean started;

        Body(MethodInvocation invocation, RendererSyncContext context, AnswerBarrier[] barriers) {
            this.invocation = invocation;
            this.context = context;
            this.barriers = barriers;
        }

        @Override
        public @Nullable Object call() throws Exception {
            started = true;
            try {
                Object publisher = invocation.proceed(); // the one place the handler method itself runs
                // Still on the context, before WebFlux subscribes to what the body returned: what the body changed
                // is settled (write-through) before any of the answer is produced.
                for (AnswerBarrier barrier : barriers) {
                    barrier.beforeAnswer(context, handlerName(invocation.getMethod()));
                }
                return publisher;
            } catch (Exception | Error thrown) {
                throw thrown;
            } catch (Throwable other) {
                throw new IllegalStateException("@OnContext handler " + invocation.getMethod() + " failed", other);
            }
        }
    }

}
