package dev.synccontext.spring.propagation;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.handler.OnContext;
import dev.synccontext.spring.websocket.LocalStomp;
import dev.synccontext.spring.websocket.StompClients;
import dev.synccontext.testing.OnRandomPort;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import java.security.Principal;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.http.server.ServerHttpRequest;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.handler.annotation.MessageMapping;
import org.springframework.messaging.simp.SimpMessageHeaderAccessor;
import org.springframework.messaging.simp.annotation.SendToUser;
import org.springframework.messaging.simp.config.ChannelRegistration;
import org.springframework.messaging.simp.config.MessageBrokerRegistry;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.messaging.support.ChannelInterceptor;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.messaging.context.SecurityContextChannelInterceptor;
import org.springframework.stereotype.Controller;
import org.springframework.web.socket.WebSocketHandler;
import org.springframework.web.socket.config.annotation.EnableWebSocketMessageBroker;
import org.springframework.web.socket.config.annotation.StompEndpointRegistry;
import org.springframework.web.socket.config.annotation.WebSocketMessageBrokerConfigurer;
import org.springframework.web.socket.server.support.DefaultHandshakeHandler;

/**
 * An {@code @OnContext} STOMP frame handler (always queued: a frame is posted to its session's context from the
 * socket's thread) with a real tracer and Spring Security: it runs with the trace ids of the span the frame was
 * read under in the MDC and in the tracer, and with the session user's {@code Authentication} (Spring
 * Security's {@link SecurityContextChannelInterceptor} on the inbound channel); the next callback on the drain
 * thread sees none of them.
 *
 * <p>Spring does not trace inbound STOMP frames itself; the test's interceptor opens a span per frame on the
 * socket's thread, as an application's tracing instrumentation would.
 */
@OnRandomPort(classes = { TracedApp.class, QueuedStompFramePropagationTest.Stomp.class },
        properties = "synccontext.executor=application-task-executor")
@ExtendWith(LocalStomp.Resolver.class)
class QueuedStompFramePropagationTest {

    @Autowired
    Stomp stomp;

    @Autowired
    Tracer tracer;

    @Autowired
    ObservationRegistry observations;

    @Test
    void aFrameRunsWithTheTraceItWasReadUnderAndTheSessionsUserAndLeavesNoneOnItsThread(LocalStomp client)
            throws Exception {
        StompSession session = client.connect("/stomp?user=bob");
        BlockingQueue<String> replies = StompClients.subscribe(session, "/user/queue/seen");
        String reply = null;
        for (int i = 0; reply == null && i < 100; i++) { // until the subscription took effect on the broker
            session.send("/app/seen", "frame-" + i);
            reply = replies.poll(300, java.util.concurrent.TimeUnit.MILLISECONDS);
        }
        assertThat(reply).as("a reply to a frame").isNotNull();
        String[] seen = reply.split("\\|");
        String frameSpan = stomp.frameSpans.get(seen[7]);
        assertThat(frameSpan).as("the span the frame was read under").isNotNull();
        String[] read = frameSpan.split("/");
        assertThat(seen[0]).as("the frame ran on the drain thread").startsWith("drain-");
        assertThat(seen[1] + "/" + seen[2]).as("traceId/spanId in the frame handler's MDC")
                .isEqualTo(read[0] + "/" + read[1]);
        assertThat(seen[3] + "/" + seen[4]).as("the tracer's current span in the frame handler")
                .isEqualTo(read[0] + "/" + read[1]);
        assertThat(seen[6]).as("the Authentication in the frame handler").isEqualTo("bob");

        RendererSyncContext context = stomp.context.get();
        CompletableFuture<String> next = new CompletableFuture<>();
        context.post(() -> next.complete(TracedApp.seen(tracer, observations)));
        String[] after = next.get(30, SECONDS).split("\\|");
        assertThat(after[0]).as("the same drain thread").startsWith("drain-");
        assertThat(String.join("|", after[1], after[2], after[3], after[4], after[5], after[6]))
                .as("MDC ids, tracer span, observation and user seen by the next callback on that thread")
                .isEqualTo("null|null|null|null|null|null");
        session.disconnect();
    }

    /**
     * STOMP at {@code /stomp}: the user is the {@code user} query parameter, authenticated; each inbound frame
     * is read under a span of its own; Spring Security's interceptor sets the session user as the
     * {@code Authentication}.
     */
    @Configuration(proxyBeanMethods = false)
    @EnableWebSocketMessageBroker
    @Import(Stomp.SeenController.class)
    static class Stomp implements WebSocketMessageBrokerConfigurer {

        /** The span each frame was read under ({@code traceId/spanId}), by the frame's payload. */
        final Map<String, String> frameSpans = new ConcurrentHashMap<>();
        final AtomicReference<RendererSyncContext> context = new AtomicReference<>();
        private final ObservationRegistry observations;
        private final Tracer tracer;

        Stomp(ObservationRegistry observations, Tracer tracer) {
            this.observations = observations;
            this.tracer = tracer;
        }

        @Override
        public void registerStompEndpoints(StompEndpointRegistry registry) {
            registry.addEndpoint("/stomp").setHandshakeHandler(new DefaultHandshakeHandler() {
                @Override
                protected @Nullable Principal determineUser(ServerHttpRequest request, WebSocketHandler handler,
                        Map<String, Object> attributes) {
                    String query = request.getURI().getQuery();
                    return query == null ? null : UsernamePasswordAuthenticationToken.authenticated(
                            query.substring(query.indexOf('=') + 1), "n/a", List.of());
                }
            });
        }

        @Override
        public void configureMessageBroker(MessageBrokerRegistry registry) {
            registry.enableSimpleBroker("/queue");
            registry.setApplicationDestinationPrefixes("/app");
        }

        @Override
        public void configureClientInboundChannel(ChannelRegistration registration) {
            registration.interceptors(new FrameSpans(), new SecurityContextChannelInterceptor());
        }

        /** Opens a span around the sending of each SEND frame, on the socket's thread. */
        final class FrameSpans implements ChannelInterceptor {

            private final ThreadLocal<Observation.Scope> scope = new ThreadLocal<>();

            @Override
            public Message<?> preSend(Message<?> message, MessageChannel channel) {
                if (SimpMessageHeaderAccessor.getDestination(message.getHeaders()) != null
                        && message.getPayload() instanceof byte[] payload && payload.length > 0) {
                    Observation frame = Observation.start("stomp.frame", observations);
                    scope.set(frame.openScope());
                    Span span = tracer.currentSpan();
                    frameSpans.put(new String(payload, java.nio.charset.StandardCharsets.UTF_8),
                            span.context().traceId() + "/" + span.context().spanId());
                }
                return message;
            }

            @Override
            public void afterSendCompletion(Message<?> message, MessageChannel channel, boolean sent,
                    @Nullable Exception ex) {
                Observation.Scope open = scope.get();
                if (open != null) {
                    scope.remove();
                    Observation frame = open.getCurrentObservation();
                    open.close();
                    frame.stop();
                }
            }
        }

        @Controller
        record SeenController(Stomp stomp, Tracer tracer, ObservationRegistry observations) {

            @OnContext
            @MessageMapping("/seen")
            @SendToUser("/queue/seen")
            String seen(String label) {
                stomp.context.set(RendererSyncContext.current().orElseThrow());
                return TracedApp.seen(tracer, observations) + "|" + label;
            }
        }
    }
}
