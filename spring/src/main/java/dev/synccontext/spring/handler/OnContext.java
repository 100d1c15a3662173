package dev.synccontext.spring.handler;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a handler method's body on its context, as Blazor runs a component's event handlers on its circuit's
 * dispatcher: on a controller class (every handler method of it) or on one handler method.
 *
 * <ul>
 * <li><b>Spring MVC {@code @RequestMapping} methods</b> run on the current HTTP session's context (the
 * request's, when the application's contexts are per request): arguments are bound and validated on the
 * request thread, then the body runs on the context, inline when the context is idle (the result is written
 * at once, no async dispatch) and queued when it is busy (the request is answered asynchronously, within
 * the async request timeout).</li>
 * <li><b>WebFlux annotated controllers</b>: the same, on the {@code WebSession}'s context.</li>
 * <li><b>STOMP {@code @MessageMapping} and {@code @SubscribeMapping} methods</b> run on the STOMP session's
 * context in the order the socket received the frames, whatever the size of the inbound pool.</li>
 * <li><b>Kotlin {@code suspend} methods</b> (MVC and WebFlux) run as a coroutine on the session's context
 * ({@code synccontext-kotlin}'s dispatcher): every part between two suspensions is a callback of the context,
 * and the request is answered asynchronously
 * ({@link dev.synccontext.spring.handler.coroutines.SuspendingBodies}).</li>
 * </ul>
 * What the method returns and throws is handled as if it had run without the annotation: return values go to
 * the response, {@code @SendTo} or {@code @SendToUser}; exceptions to {@code @ExceptionHandler} and
 * {@code @MessageExceptionHandler}.
 *
 * <p>Inside the body, {@code RendererSyncContext.current()} is the context, and
 * {@link dev.synccontext.spring.scope.ContextScoped @ContextScoped} beans are that context's. Code
 * that runs outside a handler (a scheduler, a backend's answer, another session) still goes through
 * {@code invokeAsync} on the context it touches.
 *
 * <p><b>Opting one method out.</b> On a class, every handler method runs on the context; {@code @OnContext(false)}
 * on one of them runs that method as if the class carried no annotation (a method's own annotation wins over its
 * class's, as {@code @Lazy(false)} or {@code @Transactional} on a method do): a streaming method, a health probe,
 * a method that only hands work to another context. Such a method may still hop onto the context explicitly
 * ({@code invokeAsync} on the injected context).
 */
@Target({ ElementType.TYPE, ElementType.METHOD })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface OnContext {

    /**
     * Whether the body runs on the context: {@code false} on a method opts it out of its class's
     * {@code @OnContext}; see {@link OnContextDeclarations#runsOnContext}.
     */
    boolean value() default true;
}
