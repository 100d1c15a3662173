package dev.synccontext.spring.handler;

import dev.synccontext.RendererSyncContext;

/**
 * A step between an {@link OnContext @OnContext} body and its answer: it runs on the body's context, in the same
 * callback, right after the body returned normally and before the value is handed to the return value handlers, so
 * nothing the body changed is shown to the client before the step is done. What it throws is the answer instead of
 * the body's value (through the exception resolvers, as if the body had thrown it).
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>Runs once per Spring MVC or WebFlux {@code @OnContext} body that returned (inline or queued), on that
 *       body's context: {@code RendererSyncContext.current()} is {@code context} and the next callback waits for it.
 *       For WebFlux, before the publisher the body returned is subscribed (what it emits later, off the context,
 *       cannot change the context's beans).</li>
 *   <li>A Kotlin {@code suspend} body (MVC or WebFlux), whose value is produced across several callbacks: after
 *       its last part, in the callback that completed the coroutine, before the value (or the completion
 *       without one) is handed on; for a {@code Flow}, before each element and before its end.</li>
 *   <li>Not run when the body threw (its exception is the answer).</li>
 *   <li>Several beans of this type run in their {@code @Order}; the first that throws ends the chain.</li>
 * </ul>
 * The durable state's write-through ({@code synccontext.durable.write-through=true}) is one: it writes the
 * session's snapshot and fails the answer when the store did not accept it.
 */
@FunctionalInterface
public interface AnswerBarrier {

    /**
     * Called on {@code context} after an {@code @OnContext} body returned; throwing replaces its answer.
     *
     * @param handler the handler method, for messages ({@code CounterController#increment()})
     */
    void beforeAnswer(RendererSyncContext context, String handler) throws Exception;

    /**
     * Whether {@link #beforeAnswer} has anything to do for {@code context}: a caller that must hop onto another
     * context to run it (a STOMP reply settling the user's HTTP session context) skips the hop when it has not.
     * Asked on any thread; the default, true, is always safe.
     */
    default boolean concerns(RendererSyncContext context) {
        return true;
    }
}
