package dev.synccontext.spring.handler.coroutines;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.handler.AnswerBarrier;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.springframework.aop.ProxyMethodInvocation;
import org.springframework.core.KotlinDetector;
import org.springframework.core.MethodParameter;
import org.springframework.util.ClassUtils;

/**
 * Runs a Kotlin {@code suspend} handler method as a coroutine on a context, for the {@code mvc} and
 * {@code webflux} parts. Not an API of its own: public only because those parts are other packages.
 *
 * <h2>Guarantees</h2>
 * <ul>
 * <li><b>Every part on the context.</b> The coroutine Spring starts for the method (through
 * {@code CoroutinesUtils.invokeSuspendingFunction}, as without the annotation) has the context's
 * {@code asCoroutineDispatcher()} as its dispatcher: its first part and each part after a suspension
 * ({@code delay}, an awaited future or HTTP call, the end of {@code withContext(Dispatchers.IO)}) is
 * posted to the context and runs as one of its callbacks, serialized with the context's other work, with
 * {@code RendererSyncContext.current()} and {@code @ContextScoped} beans the context's. Even the first part
 * is posted, never run inline on the request thread or event loop (the dispatcher's rule, see
 * {@code kotlin/README.md}), so a suspend handler always answers asynchronously.</li>
 * <li><b>Settled before it is shown.</b> The application's {@link AnswerBarrier}s (write-through) run on the
 * context after the coroutine's last part, in the callback that completed it, before its value (or its
 * completion without one) is handed on; for a {@code Flow}, before each element and before its end. What a
 * barrier throws is the answer instead (a refused write-through: 503). A body that failed runs none.</li>
 * <li><b>The answer leaves the context.</b> The coroutine completes inside a callback; its value (or
 * failure) is handed on from a Reactor {@code parallel} thread, so the rest of the response (Spring MVC's
 * async dispatch, WebFlux's writing) never holds the context.</li>
 * <li><b>A refused part answers 503.</b> When the context rejects a part (closed, or its queue full), the
 * dispatcher cancels the coroutine with the rejection as cause; the answer is then a
 * {@link dev.synccontext.spring.handler.ContextUnavailableException} naming the context, as for a
 * refused plain body.</li>
 * <li><b>Values as without the annotation</b>: {@code Unit} is no value, an inline value class is unboxed
 * (Spring MVC's own rule), a {@code Flow} result is a multi-value publisher.</li>
 * </ul>
 * Needs, besides Kotlin: {@code synccontext-kotlin} (the dispatcher), and what Spring itself needs for
 * suspend handlers, {@code kotlinx-coroutines-reactor} and {@code kotlin-reflect}; {@link #missing} names
 * what is absent, for the startup checks.
 */
public final class SuspendingBodies {

    /** A class of each library a suspend handler on its context needs, and the library. */
    private static final String[][] NEEDED = {
        { "dev.synccontext.kotlin.SyncContextCoroutinesKt", "dev.synccontext:synccontext-kotlin" },
        { "kotlinx.coroutines.reactor.MonoKt", "org.jetbrains.kotlinx:kotlinx-coroutines-reactor" },
        { "kotlin.reflect.full.KClasses", "org.jetbrains.kotlin:kotlin-reflect" },
    };

    private static final String FLOW = "kotlinx.coroutines.flow.Flow";

    private SuspendingBodies() {
    }

    /** Whether {@code method} is a Kotlin {@code suspend} function (false, without loading Kotlin, in a Java application). */
    public static boolean isSuspending(Method method) {
        return KotlinDetector.isKotlinPresent() && KotlinDetector.isSuspendingFunction(method);
    }

    /**
     * The libraries missing for a suspend handler to run on its context, as a sentence naming them; null when
     * none is missing.
     */
    public static @Nullable String missing(@Nullable ClassLoader loader) {
        List<String> absent = new ArrayList<>();
        for (String[] needed : NEEDED) {
            if (!ClassUtils.isPresent(needed[0], loader)) {
                absent.add(needed[1]);
            }
        }
        return absent.isEmpty() ? null : "add " + String.join(" and ", absent) + " to the application";
    }

    /** Whether the suspend {@code method} returns a {@code Flow} (then its publisher has many values). */
    public static boolean returnsFlow(Method method) {
        return FLOW.equals(new MethodParameter(method, -1).getParameterType().getName());
    }

    /**
     * Spring MVC: starts the suspend {@code method} on {@code target} with {@code args} (the bound arguments) as
     * a coroutine on {@code context}, when the returned publisher is subscribed.
     *
     * @param handler the handler's short description, for a refusal's message
     * @param barrier the {@link AnswerBarrier}s, in order, that the value waits for
     */
    public static Publisher<?> invoke(RendererSyncContext context, Method method, Object target,
            @Nullable Object[] args, String handler, AnswerBarrier barrier) {
        return CoroutineBodies.invoke(context, method, target, args, handler, barrier);
    }

    /**
     * An AOP proxy's call of the suspend method (WebFlux's {@code @OnContext} controllers): proceeds with the
     * caller's continuation given a coroutine context whose dispatcher is {@code context}'s, so the rest of the
     * advice chain and the method run as they would without the annotation, in a coroutine on the context.
     * The proxy awaits the returned publisher with the caller's own continuation.
     *
     * @param invocation a clone of the proxy's invocation, proceeded once
     * @param handler the handler's short description, for a refusal's message
     * @param barrier the {@link AnswerBarrier}s, in order, that the value waits for
     */
    public static Publisher<?> proceed(RendererSyncContext context, ProxyMethodInvocation invocation, String handler,
            AnswerBarrier barrier) throws Throwable {
        return CoroutineBodies.proceed(context, invocation, handler, barrier);
    }
}
