package dev.synccontext.spring.websocket;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.handler.AnswerBarrier;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.MessageDeliveryException;
import org.springframework.messaging.simp.SimpMessageHeaderAccessor;
import org.springframework.messaging.simp.SimpMessageType;
import org.springframework.messaging.simp.stomp.StompCommand;
import org.springframework.messaging.simp.stomp.StompHeaderAccessor;
import org.springframework.messaging.support.ChannelInterceptor;
import org.springframework.messaging.support.MessageBuilder;

/**
 * The {@link AnswerBarrier}s (write-through) for STOMP: a message that an {@code @OnContext} frame's handling sends
 * to clients ({@code @SendTo}, {@code @SendToUser}, a {@code @SubscribeMapping} reply, a
 * {@code SimpMessagingTemplate} send in the method) leaves only after the barriers passed. An interceptor of
 * {@code brokerChannel} and {@code clientOutboundChannel}.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>Which state.</b> A frame runs on its STOMP session's own context, whose beans are node-local (a
 *       {@code @Durable} bean refuses to be made there). The durable state a frame changes is its user's: the
 *       HTTP session's context, reached through {@link HttpSessionContext @HttpSessionContext}. So before each
 *       message the frame sends, the barriers run for the frame's context (here, inline) and for the HTTP
 *       session's context the socket was opened from, in a callback of that context: after every callback the
 *       handler queued there before it, a consistent cut. A context no barrier {@link AnswerBarrier#concerns
 *       concerns} costs no hop.</li>
 *   <li><b>Never a reply for unsaved state.</b> A barrier that throws (the store refused the write or did not
 *       confirm it) fails that send: the message is not delivered, nothing else the frame sends is, and the
 *       client gets a STOMP {@code ERROR} frame naming the session and the method, after which Spring closes the
 *       socket (the STOMP rule after {@code ERROR}); the node's copy is dropped, so the client's reconnect and
 *       retry continue from what the store holds.</li>
 *   <li><b>Outside a frame.</b> A message sent from inside a callback of a context the barriers concern (a
 *       handler that returns {@code user.invokeAsync(...)}: its reply is sent from the callback that completes
 *       it; a send inside such a callback) runs them there, inline, first. A refusal fails that send: nothing is
 *       delivered, and Spring reports the failure where the send was made (for a returned future, the
 *       method's {@code @MessageExceptionHandler}, else its log); there is no frame to answer with
 *       {@code ERROR}.</li>
 *   <li><b>Once per message.</b> A message the broker relays on to subscribers (brokerChannel, then
 *       clientOutboundChannel, on the same thread) is settled once, when it is first sent.</li>
 * </ul>
 * The hop to the HTTP session's context waits at most {@link #SETTLE_WAIT} (a guess: long enough for any store
 * round trip, short enough to free the STOMP session's context); past it the frame answers {@code ERROR}.
 */
public final class StompReplies implements ChannelInterceptor {

    private static final Log LOG = LogFactory.getLog(StompReplies.class);

    /** How long a frame's reply waits for the HTTP session's context to settle. */
    static final Duration SETTLE_WAIT = Duration.ofSeconds(30);

    /** The frame whose handling runs on this thread, if any. */
    private static final ThreadLocal<@Nullable Frame> FRAME = new ThreadLocal<>();

    private final Supplier<AnswerBarrier[]> barriers;
    private final Supplier<@Nullable HttpSessionHandshakes> httpSessions;
    private final Supplier<MessageChannel> clientOutbound;

    /**
     * @param barriers       the application's barriers in order, asked at each message (none: nothing is held)
     * @param httpSessions   how a STOMP session finds its HTTP session's context (null: it has none)
     * @param clientOutbound where the {@code ERROR} frame goes ({@code clientOutboundChannel})
     */
    public StompReplies(Supplier<AnswerBarrier[]> barriers, Supplier<@Nullable HttpSessionHandshakes> httpSessions,
            Supplier<MessageChannel> clientOutbound) {
        this.barriers = barriers;
        this.httpSessions = httpSessions;
        this.clientOutbound = clientOutbound;
    }

    /** Binds {@code frame} to this thread while its handling runs; {@link #end} unbinds it. */
    Frame begin(Message<?> inbound, RendererSyncContext context, String method) {
        Frame frame = new Frame(inbound, context, method, FRAME.get());
        FRAME.set(frame);
        return frame;
    }

    /** Unbinds {@code frame}; when one of its sends was refused, answers the client with an {@code ERROR} frame. */
    void end(Frame frame) {
        if (frame.previous == null) {
            FRAME.remove();
        } else {
            FRAME.set(frame.previous);
        }
        Exception refused = frame.refused;
        if (refused != null) {
            sendError(frame, refused);
        }
    }

    @Override
    public @Nullable Message<?> preSend(Message<?> message, MessageChannel channel) {
        if (SimpMessageHeaderAccessor.getMessageType(message.getHeaders()) != SimpMessageType.MESSAGE) {
            return message;
        }
        AnswerBarrier[] all = barriers.get();
        if (all.length == 0) {
            return message;
        }
        Frame frame = FRAME.get();
        if (frame != null) {
            if (frame.sending > 0) {
                frame.sending++; // relayed by the broker within a send settled already
                return message;
            }
            if (frame.refused != null) {
                throw new MessageDeliveryException(message, "Not sent: an earlier reply of this frame was refused",
                        frame.refused);
            }
            try {
                settle(all, frame.context, frame.method);
                RendererSyncContext user = userContext(frame);
                if (user != null && user != frame.context) {
                    settle(all, user, frame.method);
                }
            } catch (Exception refused) {
                frame.refused = refused;
                throw new MessageDeliveryException(message, "Not sent: " + refused.getMessage(), refused);
            }
            frame.sending++;
            return message;
        }
        RendererSyncContext current = RendererSyncContext.current().orElse(null);
        if (current != null) {
            try {
                settleInline(all, current, "a message sent to '"
                        + SimpMessageHeaderAccessor.getDestination(message.getHeaders()) + "'");
            } catch (Exception refused) {
                throw new MessageDeliveryException(message, "Not sent: " + refused.getMessage(), refused);
            }
        }
        return message;
    }

    @Override
    public void afterSendCompletion(Message<?> message, MessageChannel channel, boolean sent, @Nullable Exception ex) {
        Frame frame = FRAME.get();
        if (frame != null && frame.sending > 0
                && SimpMessageHeaderAccessor.getMessageType(message.getHeaders()) == SimpMessageType.MESSAGE) {
            frame.sending--;
        }
    }

    private @Nullable RendererSyncContext userContext(Frame frame) {
        HttpSessionHandshakes handshakes = httpSessions.get();
        Map<String, Object> attributes = SimpMessageHeaderAccessor.getSessionAttributes(frame.inbound.getHeaders());
        return handshakes == null ? null : handshakes.contextOf(attributes).orElse(null);
    }

    /** Runs the barriers that concern {@code context} on it: inline when this thread holds it, else in a callback. */
    private static void settle(AnswerBarrier[] all, RendererSyncContext context, String method) throws Exception {
        if (context.checkAccess()) {
            settleInline(all, context, method);
            return;
        }
        if (!concerns(all, context)) {
            return;
        }
        try {
            context.invokeAsync(() -> {
                settleInline(all, context, method);
                return null;
            }).get(SETTLE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw interrupted;
        } catch (ExecutionException failed) {
            throw failed.getCause() instanceof Exception cause ? cause : failed;
        } catch (TimeoutException slow) {
            throw new IllegalStateException("context '" + context.name() + "' did not settle the reply of " + method
                    + " within " + SETTLE_WAIT.toSeconds() + " s", slow);
        }
    }

    private static void settleInline(AnswerBarrier[] all, RendererSyncContext context, String method)
            throws Exception {
        for (AnswerBarrier barrier : all) {
            if (barrier.concerns(context)) {
                barrier.beforeAnswer(context, method);
            }
        }
    }

    private static boolean concerns(AnswerBarrier[] all, RendererSyncContext context) {
        for (AnswerBarrier barrier : all) {
            if (barrier.concerns(context)) {
                return true;
            }
        }
        return false;
    }

    private void sendError(Frame frame, Exception refused) {
        String sessionId = SimpMessageHeaderAccessor.getSessionId(frame.inbound.getHeaders());
        String text = "The reply of " + frame.method + " was not sent: " + refused.getMessage();
        LOG.warn("STOMP session " + sessionId + ": " + text + "; answered with an ERROR frame");
        if (sessionId == null) {
            return;
        }
        StompHeaderAccessor error = StompHeaderAccessor.create(StompCommand.ERROR);
        error.setSessionId(sessionId);
        error.setMessage(firstLine(text));
        error.setLeaveMutable(true);
        clientOutbound.get().send(MessageBuilder.createMessage(text.getBytes(StandardCharsets.UTF_8),
                error.getMessageHeaders()));
    }

    /** A STOMP header value holds no line break. */
    private static String firstLine(String text) {
        int end = text.indexOf('\n');
        return end < 0 ? text : text.substring(0, end);
    }

    /** One frame's handling on this thread: what it came with, and what became of its sends. */
    static final class Frame {
        final Message<?> inbound;
        final RendererSyncContext context;
        final String method;
        final @Nullable Frame previous;
        /** Sends in progress on this thread (a settled one and the broker's relays of it): a relay is not settled again. */
        int sending;
        @Nullable Exception refused;

        Frame(Message<?> inbound, RendererSyncContext context, String method, @Nullable Frame previous) {
            this.inbound = inbound;
            this.context = context;
            this.method = method;
            this.previous = previous;
        }
    }
}
