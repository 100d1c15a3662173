package dev.synccontext.spring.webflux;

import dev.synccontext.spring.handler.OnContext;
import dev.synccontext.spring.handler.OnContextDeclarations;
import dev.synccontext.spring.handler.coroutines.SuspendingBodies;
import dev.synccontext.spring.session.WebSessionContexts;
import java.lang.reflect.Method;
import dev.synccontext.spring.SyncContextConfigurationException;
import java.util.ArrayList;
import java.util.List;
import dev.synccontext.spring.handler.AnswerBarrier;
import java.util.function.Supplier;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.framework.AbstractAdvisingBeanPostProcessor;
import org.springframework.aop.support.StaticMethodMatcherPointcutAdvisor;
import org.springframework.core.ReactiveAdapter;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;
import org.springframework.web.bind.annotation.RequestMapping;

/**
 * Carries out {@link OnContext @OnContext} for WebFlux annotated controllers: a controller with an annotated
 * {@code @RequestMapping} method (or an annotated controller class) is proxied, and the proxy hands the
 * method's body to the {@code WebSession}'s context.
 *
 * <h2>Guarantees</h2>
 * <ul>
 * <li><b>Binding and validation stay on the request thread</b>: WebFlux resolves and validates the arguments
 * before it calls the method; the proxy sees them resolved.</li>
 * <li><b>The body runs on the {@code WebSession}'s context</b> ({@link WebSessionContexts}, the context a
 * {@code RendererSyncContext} parameter gets), one body at a time per session, inline when the context is
 * idle and queued when it is busy. Inside it {@code RendererSyncContext.current()} is that context and
 * {@code @ContextScoped} beans are its own.</li>
 * <li><b>Only the body</b>: the method returns a {@code Mono}, {@code Flux} or another deferred reactive type
 * (one of the {@link ReactiveAdapterRegistry}, not a {@code CompletableFuture}, which would have started
 * already); the body, which assembles that publisher, runs on the context when WebFlux subscribes, and the
 * publisher it returned is subscribed after the body has left the context (on the request thread when the
 * body ran inline, on a Reactor parallel thread when it was queued). Its operators run where its signals
 * arrive, not on the context; hop back with {@code publishOn} on a scheduler for the context where a later
 * step touches the context's state.</li>
 * <li><b>Exceptions as without the annotation</b>: what the body throws is the publisher's error, which
 * WebFlux hands to the controller's {@code @ExceptionHandler} methods and {@code @ControllerAdvice}; a body
 * the context refused (closed, full) fails with
 * {@link dev.synccontext.spring.handler.ContextUnavailableException} (503).</li>
 * </ul>
 *
 * <h2>Why a proxy</h2>
 * WebFlux's adapter makes its {@code InvocableHandlerMethod} privately and offers no factory to override (its
 * only invocation hook, the blocking executor, is one scheduler for the whole application, and it moves
 * argument resolution too); a proxy composes with anything else, as {@code @Async} and method validation do.
 * Because a reactive method returns before its work is done, the proxy can return a publisher of the method's
 * own type at once and run the body when it is subscribed, with the request's exchange at hand (the
 * {@code ServerWebExchangeContextFilter} puts it in the Reactor context). A method with any other return type
 * ({@code String}, {@code ResponseEntity}, {@code void}, {@code CompletableFuture}) could not wait for a busy
 * context without blocking the event loop: it is refused when the controller is created, with a message saying
 * to return a {@code Mono}.
 *
 * <h2>Ahead of time</h2>
 * The proxy is an ordinary Spring AOP proxy: AOT processing makes its class at build time (this post-processor's
 * {@code determineBeanType}, inherited from Spring) and the run time loads it instead of defining one.
 *
 * <h2>Kotlin {@code suspend} methods</h2>
 * Run as a coroutine on the WebSession's context: the proxy proceeds with the caller's continuation given
 * the context's {@code asCoroutineDispatcher()}, so every part of the body between two suspensions is a
 * callback of the context (posted, even the first), and the value is handed back to WebFlux off the context
 * ({@link SuspendingBodies}). Without {@code synccontext-kotlin} (or {@code kotlinx-coroutines-reactor},
 * {@code kotlin-reflect}) the controller is refused when it is created, naming what to add.
 */
public final class OnContextHandlers extends AbstractAdvisingBeanPostProcessor implements BeanFactoryAware {

    private volatile @Nullable BeanFactory beanFactory;
    /** The application's {@link AnswerBarrier} beans in order, looked up at the first body. */
    private volatile AnswerBarrier @Nullable [] barriers;

    public OnContextHandlers(Supplier<WebSessionContexts> contexts) {
        OnContextMethodInterceptor interceptor = new OnContextMethodInterceptor(contexts,
                ReactiveAdapterRegistry.getSharedInstance(), this::barriers);
        this.advisor = new StaticMethodMatcherPointcutAdvisor(interceptor) {
            @Override
            public boolean matches(Method method, Class<?> targetClass) {
                return isOnContext(method, targetClass);
            }
        };
        setProxyTargetClass(true); // handler detection needs the controller's class, not an interface
        setBeforeExistingAdvisors(false); // inside method validation and other advice: only the body moves
    }

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beanFactory = beanFactory;
    }

    /** The {@link AnswerBarrier}s a body's value waits for (write-through), in their order. */
    private AnswerBarrier[] barriers() {
        AnswerBarrier[] all = barriers;
        if (all == null) {
            BeanFactory factory = beanFactory;
            all = factory == null ? new AnswerBarrier[0]
                    : factory.getBeanProvider(AnswerBarrier.class).orderedStream().toArray(AnswerBarrier[]::new);
            barriers = all;
        }
        return all;
    }

    @Override
    protected boolean isEligible(Class<?> targetClass) {
        boolean eligible = super.isEligible(targetClass);
        if (eligible) {
            refuseWhatCannotWait(targetClass);
        }
        return eligible;
    }

    /** Whether {@code method} is a request mapping of {@code targetClass} that runs on its context ({@link OnContextDeclarations}). */
    static boolean isOnContext(Method method, Class<?> targetClass) {
        Class<?> userClass = ClassUtils.getUserClass(targetClass);
        return AnnotatedElementUtils.hasAnnotation(method, RequestMapping.class)
                && OnContextDeclarations.runsOnContext(method, userClass);
    }

    private void refuseWhatCannotWait(Class<?> targetClass) {
        List<String> refused = new ArrayList<>();
        ReactiveAdapterRegistry registry = ReactiveAdapterRegistry.getSharedInstance();
        ReflectionUtils.doWithMethods(ClassUtils.getUserClass(targetClass), method -> {
            if (!isOnContext(method, targetClass)) {
                return;
            }
            if (SuspendingBodies.isSuspending(method)) {
                String missing = SuspendingBodies.missing(getProxyClassLoader());
                if (missing != null) {
                    refused.add("@OnContext WebFlux handler " + method.getDeclaringClass().getSimpleName() + "#"
                            + method.getName() + " is a Kotlin suspend function, whose coroutine runs on the WebSession's"
                            + " context through synccontext-kotlin's dispatcher: " + missing + ".");
                }
                return;
            }
            @Nullable ReactiveAdapter adapter = registry.getAdapter(method.getReturnType());
            if (adapter == null || !adapter.getDescriptor().isDeferred()) {
                refused.add(notDeferred(method));
            }
        });
        if (!refused.isEmpty()) {
            throw new SyncContextConfigurationException(String.join(" ", refused), "Make each of these handlers return"
                    + " a Mono or Flux (Mono<Void> for no value) or a Kotlin suspend function with what it needs on the"
                    + " class path, or take @OnContext off it and hop onto the context yourself.");
        }
    }

    static String notDeferred(Method method) {
        return "@OnContext WebFlux handler " + method.getDeclaringClass().getSimpleName() + "#" + method.getName()
                + " returns " + method.getReturnType().getSimpleName() + ", which cannot wait for a busy context without"
                + " blocking the event loop. Return a Mono or Flux (Mono<Void> for no value), or make it a Kotlin suspend"
                + " function: its body then runs on the WebSession's context when WebFlux subscribes.";
    }
}
