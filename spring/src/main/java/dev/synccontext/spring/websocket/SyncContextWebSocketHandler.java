package dev.synccontext.spring.websocket;

import dev.synccontext.RendererSyncContext;
import java.util.concurrent.RejectedExecutionException;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.WebSocketHandler;
import org.springframework.web.socket.WebSocketMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.handler.WebSocketHandlerDecorator;

/**
 * Gives each session of a plain {@link WebSocketHandler} its own {@link RendererSyncContext} and runs
 * the handler's callbacks on it:
 *
 * <pre>{@code
 * registry.addHandler(new SyncContextWebSocketHandler(new ChatHandler(), contexts), "/chat");
 * }</pre>
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>The context is opened before the delegate's {@code afterConnectionEstablished} and released
 *       (gracefully, see {@link WebSocketSessionContexts#release}) after its {@code afterConnectionClosed},
 *       on a clean close and on a dropped connection alike; also when the delegate throws.</li>
 *   <li>Every delegate callback runs <b>inside</b> the session's context, on the container's thread, with
 *       {@link RendererSyncContext#send}: at once when the context is idle, after the work queued before it
 *       otherwise (a push from a scheduler, an I/O continuation hopping back with
 *       {@code thenAcceptAsync(..., context)}). So the handler's per-session state and
 *       {@code session.sendMessage} (which a WebSocket session does not allow from two threads at a time)
 *       need no lock, as long as other threads reach them through the context too:
 *       {@code contexts.require(session.getAttributes()).post(...)}.</li>
 *   <li>The delegate's exceptions propagate unchanged, so Spring's exception decorator still closes the
 *       session on a failure.</li>
 * </ul>
 *
 * <p>Trade-off: while the context runs other work, the container's thread waits for its turn (which also
 * keeps the frames of the session in order and applies backpressure to the client); a callback that blocks
 * the context therefore delays that session's frames, never another session's.
 */
public class SyncContextWebSocketHandler extends WebSocketHandlerDecorator {

    private final WebSocketSessionContexts contexts;

    public SyncContextWebSocketHandler(WebSocketHandler delegate, WebSocketSessionContexts contexts) {
        super(delegate);
        this.contexts = contexts;
    }

    @Override
    public void afterConnectionEstablished(WebSocketSession session) throws Exception {
        RendererSyncContext context = contexts.open(session.getAttributes());
        runOn(context, () -> getDelegate().afterConnectionEstablished(session));
    }

    @Override
    public void handleMessage(WebSocketSession session, WebSocketMessage<?> message) throws Exception {
        runOn(contexts.require(session.getAttributes()), () -> getDelegate().handleMessage(session, message));
    }

    @Override
    public void handleTransportError(WebSocketSession session, Throwable exception) throws Exception {
        runOnIfOpen(session, () -> getDelegate().handleTransportError(session, exception));
    }

    @Override
    public void afterConnectionClosed(WebSocketSession session, CloseStatus closeStatus) throws Exception {
        try {
            runOnIfOpen(session, () -> getDelegate().afterConnectionClosed(session, closeStatus));
        } finally {
            contexts.release(session.getAttributes());
        }
    }

    /**
     * Runs an end-of-session callback on the session's context, or directly when there is none to run it on
     * (opening failed, or application shutdown closed it first): such a callback is never skipped.
     */
    private void runOnIfOpen(WebSocketSession session, Step step) throws Exception {
        RendererSyncContext context = contexts.find(session.getAttributes()).orElse(null);
        if (context == null || context.isClosed()) {
            step.run();
            return;
        }
        boolean[] started = new boolean[1];
        try {
            runOn(context, () -> {
                started[0] = true;
                step.run();
            });
        } catch (RejectedExecutionException refused) {
            if (started[0]) {
                throw refused; // the delegate's own
            }
            step.run(); // refused before it ran: the context closed between the check and the call
        }
    }

    /** The context of {@code session}, for code that reaches the session from other threads. */
    public RendererSyncContext contextOf(WebSocketSession session) {
        return contexts.require(session.getAttributes());
    }

    private static void runOn(RendererSyncContext context, Step step) throws Exception {
        try {
            context.send(() -> {
                try {
                    step.run();
                } catch (RuntimeException | Error unchecked) {
                    throw unchecked;
                } catch (Exception checked) {
                    throw new CheckedCarrier(checked);
                }
            });
        } catch (CheckedCarrier carrier) {
            throw (Exception) carrier.getCause();
        }
    }

    @FunctionalInterface
    private interface Step {
        void run() throws Exception;
    }

    /** Carries a delegate's checked exception through {@code send}, which takes a {@code Runnable}. */
    private static final class CheckedCarrier extends RuntimeException {
        CheckedCarrier(Exception cause) {
            super(cause);
        }
    }
}
