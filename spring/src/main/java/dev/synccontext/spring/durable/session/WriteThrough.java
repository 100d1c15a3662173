package dev.synccontext.spring.durable.session;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.handler.AnswerBarrier;
import java.util.Objects;

/**
 * Write-through ({@code synccontext.durable.write-through=true}): an {@code @OnContext} answer is given only after
 * the snapshot of the session's durable beans, as the body left them, is accepted by the store.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>Nothing shown is lost.</b> The snapshot is taken on the context right after the body returned and
 *       written before the answer reaches the return value handlers; a node killed after that loses nothing the
 *       client saw. An answer whose beans did not change writes nothing (the snapshot compares equal).</li>
 *   <li><b>Never success for unsaved state.</b> A write the store refuses (another node took the session, or this
 *       node's lease ended) or does not confirm (the store is down or slow) fails the answer:
 *       {@link SessionUnavailableException}, 503 with {@code Retry-After}, naming the session and the handler. The
 *       copy on this node is dropped, so the retry restores what the store holds. A write that failed on the way
 *       back may have been stored: the client, told it failed, may repeat it (as with any database).</li>
 *   <li><b>The cost</b>: one store round trip per changing answer, on the context, so a session's callbacks wait
 *       for it in turn (other sessions do not). The debounced checkpoint still runs and finds the state clean.</li>
 * </ul>
 * Spring MVC, WebFlux and Kotlin {@code suspend} {@code @OnContext} bodies write through (see {@link AnswerBarrier}),
 * and so do STOMP {@code @OnContext} frames, for their user's HTTP session context, before each message they send
 * ({@code dev.synccontext.spring.websocket.StompReplies}; a refusal is a STOMP {@code ERROR} frame). A plain
 * callback keeps the debounced checkpoint.
 */
public final class WriteThrough implements AnswerBarrier {

    private final DurableContexts durable;

    public WriteThrough(DurableContexts durable) {
        this.durable = Objects.requireNonNull(durable, "durable");
    }

    @Override
    public void beforeAnswer(RendererSyncContext context, String handler) {
        durable.writeThrough(context, handler);
    }

    @Override
    public boolean concerns(RendererSyncContext context) {
        return durable.holdsDurableState(context);
    }
}
