package dev.synccontext.spring.websocket;

import dev.synccontext.RendererSyncContext;
import java.util.List;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.MessageDeliveryException;
import org.springframework.messaging.MessageHandler;
import org.springframework.messaging.handler.HandlerMethod;
import org.springframework.messaging.simp.SimpMessageHeaderAccessor;
import org.springframework.messaging.support.ExecutorChannelInterceptor;

/**
 * One STOMP frame for an {@code @OnContext} method, handled by Spring's annotation handler inside a callback of
 * its session's context: what the inbound pool's task would have done (Spring's
 * {@code ExecutorSubscribableChannel} send task), on the context instead.
 *
 * <p>The channel's executor interceptors wrap the handling as in that task: {@code beforeHandle} in order (one
 * that returns null ends the frame), {@code afterMessageHandled} in reverse for those that ran, its own failures
 * logged. The handler gives the method's exceptions to {@code @MessageExceptionHandler} itself; what escapes
 * it is rethrown as a {@link MessageDeliveryException} naming the destination, the method and the context, to
 * the context's unhandled-exception handler (by default, logged at ERROR and counted).
 */
final class FrameOnContext implements Runnable {

    private static final Log LOG = LogFactory.getLog(FrameOnContext.class);

    private final Message<?> message;
    private final MessageChannel channel;
    private final MessageHandler handler;
    private final List<ExecutorChannelInterceptor> interceptors;
    private final HandlerMethod method;
    private final RendererSyncContext context;
    private final @Nullable StompReplies replies;

    FrameOnContext(Message<?> message, MessageChannel channel, MessageHandler handler,
            List<ExecutorChannelInterceptor> interceptors, HandlerMethod method, RendererSyncContext context,
            @Nullable StompReplies replies) {
        this.message = message;
        this.channel = channel;
        this.handler = handler;
        this.interceptors = interceptors;
        this.method = method;
        this.context = context;
        this.replies = replies;
    }

    @Override
    public void run() {
        Message<?> current = message;
        int applied = 0;
        try {
            for (ExecutorChannelInterceptor interceptor : interceptors) {
                Message<?> next = interceptor.beforeHandle(current, channel, handler);
                if (next == null) {
                    afterHandled(applied, current, null);
                    return;
                }
                current = next;
                applied++;
            }
            handle(current);
            afterHandled(applied, current, null);
        } catch (Exception failure) {
            afterHandled(applied, current, failure);
            throw new MessageDeliveryException(current, "Failed to handle the STOMP frame to '"
                    + SimpMessageHeaderAccessor.getDestination(current.getHeaders()) + "' for @OnContext method "
                    + method.getShortLogMessage() + " on context '" + context.name() + "'", failure);
        }
    }

    /** Spring's handling, with what it sends held to the barriers ({@link StompReplies}) when there are any. */
    private void handle(Message<?> current) {
        StompReplies held = replies;
        if (held == null) {
            handler.handleMessage(current);
            return;
        }
        StompReplies.Frame frame = held.begin(current, context, method.getShortLogMessage());
        try {
            handler.handleMessage(current);
        } finally {
            held.end(frame);
        }
    }

    private void afterHandled(int applied, Message<?> handled, @Nullable Exception failure) {
        for (int i = applied - 1; i >= 0; i--) {
            ExecutorChannelInterceptor interceptor = interceptors.get(i);
            try {
                interceptor.afterMessageHandled(handled, channel, handler, failure);
            } catch (Throwable afterFailure) {
                LOG.error("Exception from afterMessageHandled in " + interceptor, afterFailure);
            }
        }
    }

    @Override
    public String toString() {
        return "STOMP frame to '" + SimpMessageHeaderAccessor.getDestination(message.getHeaders()) + "' for "
                + method.getShortLogMessage();
    }
}
