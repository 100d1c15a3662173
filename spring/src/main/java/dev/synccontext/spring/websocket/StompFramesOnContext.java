package dev.synccontext.spring.websocket;

import dev.synccontext.RendererSyncContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.MessageHandler;
import org.springframework.messaging.handler.HandlerMethod;
import org.springframework.messaging.simp.SimpMessageHeaderAccessor;
import org.springframework.messaging.simp.annotation.support.SimpAnnotationMethodMessageHandler;
import org.springframework.messaging.support.AbstractMessageChannel;
import org.springframework.messaging.support.ChannelInterceptor;
import org.springframework.messaging.support.ExecutorChannelInterceptor;

/**
 * Carries out {@link dev.synccontext.spring.handler.OnContext @OnContext} for STOMP: the frames for an
 * {@code @OnContext} {@code @MessageMapping} or {@code @SubscribeMapping} method are handled on their session's
 * context, in the order the socket received them. An interceptor of {@code clientInboundChannel}.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>Arrival order, relative to everything on the context.</b> {@link #postSend} runs on the thread that
 *       read the frame from the socket, one frame after another, before that thread reads the next; it posts
 *       the frame's handling to the session's context there. So the frames of a session enter the context's
 *       FIFO queue in the order the socket read them, and so does every other callback of that context (a
 *       scheduler's tick, a backend's answer) at the moment it is posted. The inbound pool's size plays no
 *       part: {@link #beforeHandle} keeps the pool's copy of such a frame from Spring's annotation handler.</li>
 *   <li><b>Spring's handling, unchanged, on the context</b> ({@link FrameOnContext}): the annotation handler
 *       resolves the method's arguments, invokes it, sends its return value to {@code @SendTo},
 *       {@code @SendToUser} or the subscriber, and gives its exceptions to {@code @MessageExceptionHandler},
 *       all inside one callback of the context, with the channel's {@code ExecutorChannelInterceptor}s around
 *       it as the pool would have applied them (a security context, for instance).</li>
 *   <li><b>Replies after the barriers.</b> What the handling sends to clients leaves only after the
 *       application's {@code AnswerBarrier}s (write-through) passed for the frame's context and its user's HTTP
 *       session context; a refusal answers the client with a STOMP {@code ERROR} frame ({@link StompReplies}).</li>
 *   <li><b>Everything else keeps Spring's path</b>: frames for the broker, for unannotated methods, CONNECT,
 *       DISCONNECT. Whether a method is {@code @OnContext} is decided once ({@link OnContextMappings}).</li>
 *   <li><b>Nothing lost, nothing hung.</b> A frame whose session's context refuses it (closed because the
 *       session ended, or full) is logged at WARN with the context's name and the method, and not run; a
 *       frame posted before the session ended runs before the context's {@code @ContextScoped} beans are
 *       destroyed (release is graceful); one that outlives {@code synccontext.shutdown-timeout} is counted in
 *       the registry's forced-close warning. The socket's thread never waits for the context.</li>
 * </ul>
 *
 * <p>Built lazily on the first frame (Spring's annotation handler has found its methods by then): the handler
 * ({@code getIfUnique}), its mappings and the channel's executor interceptors, as configured at startup.
 */
public final class StompFramesOnContext implements ExecutorChannelInterceptor {

    private static final Log LOG = LogFactory.getLog(StompFramesOnContext.class);

    private final WebSocketSessionContexts contexts;
    private final ObjectProvider<SimpAnnotationMethodMessageHandler> annotationHandler;
    private final @Nullable StompReplies replies;
    private volatile @Nullable Routing routing;

    public StompFramesOnContext(WebSocketSessionContexts contexts,
            ObjectProvider<SimpAnnotationMethodMessageHandler> annotationHandler) {
        this(contexts, annotationHandler, null);
    }

    /** @param replies what holds a frame's replies to the answer barriers (write-through); null: nothing is held */
    public StompFramesOnContext(WebSocketSessionContexts contexts,
            ObjectProvider<SimpAnnotationMethodMessageHandler> annotationHandler, @Nullable StompReplies replies) {
        this.contexts = contexts;
        this.annotationHandler = annotationHandler;
        this.replies = replies;
    }

    @Override
    public void postSend(Message<?> message, MessageChannel channel, boolean sent) {
        Routing routing = routing(channel);
        HandlerMethod method = routing.mappings.target(message);
        if (method == null || !sent || routing.handler == null) {
            return;
        }
        Map<String, Object> attributes = SimpMessageHeaderAccessor.getSessionAttributes(message.getHeaders());
        RendererSyncContext context = attributes == null ? null : contexts.find(attributes).orElse(null);
        if (context == null) {
            LOG.warn("STOMP frame to '" + SimpMessageHeaderAccessor.getDestination(message.getHeaders())
                    + "' for @OnContext method " + method.getShortLogMessage() + " not handled: its session has no"
                    + " context (it has not sent CONNECT)");
            return;
        }
        try {
            context.post(new FrameOnContext(message, channel, routing.handler, routing.interceptors, method, context,
                    replies));
        } catch (RejectedExecutionException refused) {
            LOG.warn("STOMP frame to '" + SimpMessageHeaderAccessor.getDestination(message.getHeaders())
                    + "' for @OnContext method " + method.getShortLogMessage() + " not handled: context '"
                    + context.name() + "' refused it (" + refused.getMessage() + ")");
        }
    }

    @Override
    public @Nullable Message<?> beforeHandle(Message<?> message, MessageChannel channel, MessageHandler handler) {
        Routing routing = routing(channel);
        if (handler == routing.handler && routing.mappings.target(message) != null) {
            return null; // posted to its session's context by postSend; the pool's copy is not handled
        }
        return message;
    }

    private Routing routing(MessageChannel channel) {
        Routing built = routing;
        if (built == null) {
            synchronized (this) {
                built = routing;
                if (built == null) {
                    built = Routing.of(annotationHandler.getIfUnique(), channel, this);
                    routing = built;
                }
            }
        }
        return built;
    }

    /** Spring's annotation handler, which of its methods are {@code @OnContext}, and the channel's other executor interceptors. */
    private record Routing(@Nullable SimpAnnotationMethodMessageHandler handler, OnContextMappings mappings,
            List<ExecutorChannelInterceptor> interceptors) {

        static Routing of(@Nullable SimpAnnotationMethodMessageHandler handler, MessageChannel channel,
                StompFramesOnContext self) {
            if (handler == null) {
                LOG.debug("No unique SimpAnnotationMethodMessageHandler: @OnContext has no STOMP methods to run");
                return new Routing(null, OnContextMappings.NONE, List.of());
            }
            List<ExecutorChannelInterceptor> interceptors = new ArrayList<>();
            if (channel instanceof AbstractMessageChannel abstractChannel) {
                for (ChannelInterceptor interceptor : abstractChannel.getInterceptors()) {
                    if (interceptor instanceof ExecutorChannelInterceptor executorInterceptor && interceptor != self) {
                        interceptors.add(executorInterceptor);
                    }
                }
            }
            return new Routing(handler, OnContextMappings.of(handler), List.copyOf(interceptors));
        }
    }
}
