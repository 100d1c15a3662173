package dev.synccontext.spring.websocket;

import dev.synccontext.autoconfigure.websocket.SyncContextWebSocketAutoConfiguration;


import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.autoconfigure.SyncContextAutoConfiguration;
import dev.synccontext.spring.handler.OnContext;
import dev.synccontext.autoconfigure.scope.SyncContextScopeAutoConfiguration;
import dev.synccontext.autoconfigure.session.SyncContextSessionAutoConfiguration;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableWebApplicationContext;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.MessageHandler;
import org.springframework.messaging.SubscribableChannel;
import org.springframework.messaging.handler.annotation.DestinationVariable;
import org.springframework.messaging.handler.annotation.MessageMapping;
import org.springframework.messaging.simp.SimpMessageHeaderAccessor;
import org.springframework.messaging.simp.annotation.support.SimpAnnotationMethodMessageHandler;
import org.springframework.messaging.simp.config.ChannelRegistration;
import org.springframework.messaging.simp.stomp.StompCommand;
import org.springframework.messaging.simp.stomp.StompHeaderAccessor;
import org.springframework.messaging.support.ExecutorChannelInterceptor;
import org.springframework.messaging.support.MessageBuilder;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.stereotype.Controller;
import org.springframework.web.socket.config.annotation.WebSocketMessageBrokerConfigurer;

/**
 * How {@link StompFramesOnContext} routes frames, with Spring's real inbound channel and annotation handler and
 * frames sent by the test thread as the socket's thread sends them (no server): arrival order among the
 * context's other work, Spring's choice of method, and what happens to a frame no context can take.
 */
@ExtendWith(OutputCaptureExtension.class)
class StompFramesOnContextTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private final WebApplicationContextRunner servlet = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SyncContextAutoConfiguration.class,
                    SyncContextSessionAutoConfiguration.class, SyncContextScopeAutoConfiguration.class,
                    SyncContextWebSocketAutoConfiguration.class))
            .withUserConfiguration(StompBroker.class, Frames.class, Tagging.class);

    @Test
    void framesEnterTheContextInArrivalOrderAmongItsOtherWork() {
        withOpenSession((app, session, context, frames) -> {
            CountDownLatch busy = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            context.post(() -> { // holds the context while the frames and the tick arrive
                busy.countDown();
                awaitLatch(release);
            });
            awaitLatch(busy);

            send(app, "/app/on/first", session);
            context.post(() -> frames.seen.add(new Seen("tick")));
            send(app, "/app/on/second", session);
            release.countDown();

            await().atMost(WAIT).until(() -> frames.seen.size() == 3);
            assertThat(frames.seen).extracting(Seen::label).as("the order they reached the context in")
                    .containsExactly("first", "tick", "second");
            assertThat(frames.seen).extracting(Seen::current).as("each ran on the session's context")
                    .containsOnly(context);
        });
    }

    @Test
    void unannotatedMethodsKeepSpringsPathAndSpringsChoiceOfMethodDecides() {
        withOpenSession((app, session, context, frames) -> {
            send(app, "/app/off/plain", session); // unannotated method
            send(app, "/app/both/exact", session); // an unannotated exact mapping beats an @OnContext pattern
            send(app, "/app/both/other", session); // only the @OnContext pattern matches

            await().atMost(WAIT).until(() -> frames.seen.size() == 3);
            assertThat(frames.byLabel("plain").current()).as("unannotated: on Spring's inbound pool").isNull();
            assertThat(frames.byLabel("exact").current()).as("Spring's best match, unannotated").isNull();
            assertThat(frames.byLabel("other").current()).as("Spring's best match, @OnContext").isSameAs(context);
        });
    }

    @Test
    void theChannelsExecutorInterceptorsWrapTheHandlingOnTheContext() {
        withOpenSession((app, session, context, frames) -> {
            Tagging tagging = app.getBean(Tagging.class);

            send(app, "/app/on/tagged", session);

            await().atMost(WAIT).until(() -> frames.seen.size() == 1 && tagging.handledOn.size() == 1);
            Seen seen = frames.byLabel("tagged");
            assertThat(seen.current()).isSameAs(context);
            assertThat(seen.tag()).as("what beforeHandle set on the context's thread").isEqualTo("/app/on/tagged");
            assertThat(tagging.handledOn).as("afterMessageHandled for Spring's annotation handler, on the thread"
                    + " that ran the body").containsExactly(seen.thread());
        });
    }

    @Test
    void aFrameForAReleasedContextIsLoggedWithItsNameAndNeverRunsOffIt(CapturedOutput output) {
        servlet.run(app -> {
            Map<String, Object> session = new ConcurrentHashMap<>();
            WebSocketSessionContexts contexts = app.getBean(WebSocketSessionContexts.class);
            RendererSyncContext context = contexts.open(session);
            contexts.release(session); // the session ended; a late frame still arrives

            send(app, "/app/on/late", session); // returns: nothing waits for the closed context

            awaitInboundIdle(app);
            assertThat(app.getBean(Frames.class).seen).as("the late frame ran nowhere").isEmpty();
            assertThat(output).contains("STOMP frame to '/app/on/late' for @OnContext method")
                    .contains("not handled: context '" + context.name() + "' refused it");
        });
    }

    @Test
    void aFrameOfASessionWithoutContextIsLoggedAndNotRun(CapturedOutput output) {
        servlet.run(app -> {
            send(app, "/app/on/early", new ConcurrentHashMap<>()); // no CONNECT, so no context

            awaitInboundIdle(app);
            assertThat(app.getBean(Frames.class).seen).isEmpty();
            assertThat(output).contains("STOMP frame to '/app/on/early'").contains("has not sent CONNECT");
        });
    }

    // ---------------------------------------------------------------- helpers

    /** Runs {@code check} in a fresh application with a STOMP session whose context is open; closes it after. */
    private void withOpenSession(SessionCheck check) {
        servlet.run(app -> {
            Map<String, Object> session = new ConcurrentHashMap<>();
            RendererSyncContext context = app.getBean(WebSocketSessionContexts.class).open(session);
            check.run(app, session, context, app.getBean(Frames.class));
            context.close();
        });
    }

    @FunctionalInterface
    interface SessionCheck {
        void run(AssertableWebApplicationContext app, Map<String, Object> session, RendererSyncContext context,
                Frames frames) throws Exception;
    }

    /** What the socket's thread does with a SEND frame it read. */
    private static void send(AssertableWebApplicationContext app, String destination, Map<String, Object> session) {
        StompHeaderAccessor headers = StompHeaderAccessor.create(StompCommand.SEND);
        headers.setDestination(destination);
        headers.setSessionId("session-1");
        headers.setSessionAttributes(session);
        Message<byte[]> frame = MessageBuilder.createMessage(new byte[0], headers.getMessageHeaders());
        assertThat(app.getBean("clientInboundChannel", SubscribableChannel.class).send(frame)).isTrue();
    }

    private static void awaitInboundIdle(AssertableWebApplicationContext app) {
        ThreadPoolTaskExecutor inbound = app.getBean("clientInboundChannelExecutor", ThreadPoolTaskExecutor.class);
        await().atMost(WAIT).until(() -> inbound.getThreadPoolExecutor().getCompletedTaskCount()
                == inbound.getThreadPoolExecutor().getTaskCount());
    }

    private static void awaitLatch(CountDownLatch latch) {
        try {
            assertThat(latch.await(WAIT.toSeconds(), TimeUnit.SECONDS)).as("latch").isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    record Seen(String label, RendererSyncContext current, String tag, String thread) {
        Seen(String label) {
            this(label, RendererSyncContext.current().orElse(null), Tagging.TAG.get(), Thread.currentThread().getName());
        }
    }

    /** An application's executor interceptor (as Spring Security's security context one is): tags the handling thread. */
    static class Tagging implements WebSocketMessageBrokerConfigurer, ExecutorChannelInterceptor {
        static final ThreadLocal<String> TAG = ThreadLocal.withInitial(() -> "none");
        final List<String> handledOn = new CopyOnWriteArrayList<>();

        @Override
        public void configureClientInboundChannel(ChannelRegistration registration) {
            registration.interceptors(this);
        }

        @Override
        public Message<?> beforeHandle(Message<?> message, MessageChannel channel, MessageHandler handler) {
            TAG.set(String.valueOf(SimpMessageHeaderAccessor.getDestination(message.getHeaders())));
            return message;
        }

        @Override
        public void afterMessageHandled(Message<?> message, MessageChannel channel, MessageHandler handler,
                Exception failure) {
            if (handler instanceof SimpAnnotationMethodMessageHandler && "/app/on/tagged".equals(TAG.get())
                    && RendererSyncContext.current().isPresent()) {
                handledOn.add(Thread.currentThread().getName());
            }
            TAG.remove();
        }
    }

    @Controller
    static class Frames {
        final List<Seen> seen = new CopyOnWriteArrayList<>();

        @OnContext
        @MessageMapping("/on/{label}")
        void on(@DestinationVariable String label) {
            seen.add(new Seen(label));
        }

        @MessageMapping("/off/{label}")
        void off(@DestinationVariable String label) {
            seen.add(new Seen(label));
        }

        @OnContext
        @MessageMapping("/both/{label}")
        void pattern(@DestinationVariable String label) {
            seen.add(new Seen(label));
        }

        @MessageMapping("/both/exact")
        void exact() {
            seen.add(new Seen("exact"));
        }

        Seen byLabel(String label) {
            return seen.stream().filter(s -> s.label().equals(label)).findFirst().orElseThrow();
        }
    }
}
