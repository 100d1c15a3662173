package dev.synccontext.spring.handler.coroutines;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.handler.AnswerBarrier;
import dev.synccontext.spring.handler.ContextUnavailableException;
import dev.synccontext.kotlin.SyncContextCoroutinesKt;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.concurrent.CancellationException;
import java.util.concurrent.RejectedExecutionException;
import kotlin.Unit;
import kotlin.coroutines.Continuation;
import kotlin.coroutines.CoroutineContext;
import kotlin.coroutines.EmptyCoroutineContext;
import kotlinx.coroutines.Job;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.springframework.aop.ProxyMethodInvocation;
import org.springframework.core.CoroutinesUtils;
import org.springframework.core.KotlinDetector;
import org.springframework.core.PropagationContextElement;
import org.springframework.util.ReflectionUtils;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Hooks;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SynchronousSink;
import reactor.core.scheduler.Schedulers;

/**
 * The Kotlin side of {@link SuspendingBodies} (its guarantees are stated there): loaded only when a suspend
 * handler method runs, so only in an application that has Kotlin.
 */
final class CoroutineBodies {

    private CoroutineBodies() {
    }

    static Publisher<?> invoke(RendererSyncContext context, Method method, Object target, @Nullable Object[] args,
            String handler, AnswerBarrier barrier) {
        Publisher<?> started = CoroutinesUtils.invokeSuspendingFunction(onContext(EmptyCoroutineContext.INSTANCE, context),
                method, target, args);
        if (started instanceof Mono<?> mono) {
            @SuppressWarnings("unchecked")
            Mono<Object> values = (Mono<Object>) mono;
            started = values.handle(CoroutineBodies::unboxed); // as Spring MVC does for a suspend handler's value
        }
        return leavingTheContext(SettledAnswers.settled(started, context, handler, barrier), context, handler);
    }

    @SuppressWarnings("unchecked")
    static Publisher<?> proceed(RendererSyncContext context, ProxyMethodInvocation invocation, String handler,
            AnswerBarrier barrier) throws Throwable {
        Object[] args = invocation.getArguments().clone();
        if (args.length == 0 || !(args[args.length - 1] instanceof Continuation<?> caller)) {
            throw new IllegalStateException("@OnContext handler " + handler + " is a suspend function called without"
                    + " its continuation; only an AOP proxy's call of it is supported here");
        }
        // Spring AOP invokes the method as a coroutine in the context of the continuation it is given (minus the
        // caller's Job): handing it one on this context's dispatcher is what moves the body there.
        args[args.length - 1] = new ContinuationOnContext<>((Continuation<Object>) caller,
                onContext(caller.getContext().minusKey(Job.Key), context));
        invocation.setArguments(args);
        Object started = invocation.proceed();
        if (!(started instanceof Publisher<?> publisher)) {
            throw new IllegalStateException("@OnContext handler " + handler + ": Spring AOP did not start the suspend"
                    + " function as a publisher (got " + (started == null ? "null" : started.getClass().getName())
                    + "); kotlinx-coroutines-reactor must be on the class path");
        }
        return leavingTheContext(SettledAnswers.settled(publisher, context, handler, barrier), context, handler);
    }

    /** {@code outer} with the context's dispatcher, and Spring's propagation element where Reactor propagates. */
    private static CoroutineContext onContext(CoroutineContext outer, RendererSyncContext context) {
        CoroutineContext coroutineContext = outer;
        if (Hooks.isAutomaticContextPropagationEnabled()) {
            coroutineContext = coroutineContext.plus(new PropagationContextElement());
        }
        return coroutineContext.plus(SyncContextCoroutinesKt.asCoroutineDispatcher(context));
    }

    /**
     * The coroutine's signals, handed on from a {@code parallel} thread: the coroutine completes inside a
     * callback of the context, and what subscribed (Spring MVC's deferred result, WebFlux's unconfined caller)
     * would otherwise go on with the response there, holding the context. A rejected part becomes a 503.
     */
    private static Publisher<?> leavingTheContext(Publisher<?> started, RendererSyncContext context, String handler) {
        if (started instanceof Flux<?> many) {
            return many.onErrorMap(failure -> refusedAs503(failure, context, handler)).publishOn(Schedulers.parallel());
        }
        return Mono.from(started).onErrorMap(failure -> refusedAs503(failure, context, handler))
                .publishOn(Schedulers.parallel());
    }

    /**
     * The dispatcher cancels a coroutine whose part the context rejected with a {@code CancellationException}
     * caused by the context's {@code RejectedExecutionException}; anything else is the body's own failure.
     */
    private static Throwable refusedAs503(Throwable failure, RendererSyncContext context, String handler) {
        if (failure instanceof CancellationException && failure.getCause() instanceof RejectedExecutionException rejected) {
            return new ContextUnavailableException(context.name(), handler, "did not run to its end", rejected);
        }
        return failure;
    }

    /** Spring MVC's handling of a suspend handler's value: an inline value class unboxed, {@code Unit} as none. */
    private static void unboxed(Object value, SynchronousSink<Object> sink) {
        Object unboxed = value;
        try {
            while (unboxed != null && KotlinDetector.isInlineClass(unboxed.getClass())) {
                Method unbox = unboxed.getClass().getDeclaredMethod("unbox-impl");
                ReflectionUtils.makeAccessible(unbox);
                unboxed = unbox.invoke(unboxed);
            }
        } catch (InvocationTargetException | IllegalAccessException | NoSuchMethodException failed) {
            sink.error(failed);
            return;
        }
        if (unboxed != null && unboxed != Unit.INSTANCE) {
            sink.next(unboxed);
        }
    }

    /** The caller's continuation seen in another coroutine context: resumes the caller, if ever resumed. */
    private record ContinuationOnContext<T>(Continuation<T> caller, CoroutineContext context) implements Continuation<T> {

        @Override
        public CoroutineContext getContext() {
            return context;
        }

        @Override
        public void resumeWith(Object result) {
            caller.resumeWith(result);
        }
    }
}
