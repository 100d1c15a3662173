package dev.synccontext.autoconfigure.websocket;

import dev.synccontext.spring.session.SessionContexts;
import dev.synccontext.spring.websocket.CurrentWebSocketSessionContext;
import dev.synccontext.spring.websocket.HttpSessionHandshakes;
import dev.synccontext.spring.websocket.StompFramesOnContext;
import dev.synccontext.spring.websocket.StompReplies;
import dev.synccontext.spring.handler.AnswerBarrier;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.simp.config.MessageBrokerRegistry;
import dev.synccontext.spring.websocket.StompSessionContextArgumentResolver;
import dev.synccontext.spring.websocket.StompSessionContextEvents;
import dev.synccontext.spring.websocket.SyncContextWebSocketHandler;
import dev.synccontext.spring.websocket.WebSocketSessionContext;
import dev.synccontext.spring.websocket.WebSocketSessionContexts;

import dev.synccontext.RendererSyncContext;
import java.util.List;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Scope;
import org.springframework.context.annotation.ScopedProxyMode;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.event.SmartApplicationListener;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.messaging.simp.annotation.support.SimpAnnotationMethodMessageHandler;
import org.springframework.messaging.simp.config.ChannelRegistration;
import org.springframework.messaging.handler.invocation.HandlerMethodArgumentResolver;
import org.springframework.web.socket.WebSocketHandler;
import org.springframework.web.socket.config.annotation.WebSocketMessageBrokerConfigurer;
import dev.synccontext.spring.ScopedSyncContext;
import dev.synccontext.autoconfigure.SyncContextAutoConfiguration;
import dev.synccontext.autoconfigure.session.SyncContextSessionAutoConfiguration;
import dev.synccontext.registry.SyncContextRegistry;

/**
 * WebSocket session contexts, side by side with the HTTP session's (or request's) context of
 * {@link SyncContextAutoConfiguration}: the plain injected {@code RendererSyncContext} stays the HTTP one,
 * and each WebSocket session gets a context of scope {@value WebSocketSessionContexts#SCOPE} of its own.
 *
 * <ul>
 *   <li>{@link WebSocketSessionContexts}: opens, finds and releases a session's context;</li>
 *   <li>{@link WebSocketSessionContext @WebSocketSessionContext} {@code RendererSyncContext}: the qualified
 *       proxy (not a default candidate, so injection by type keeps meaning the HTTP one);</li>
 *   <li>plain WebSocket handlers: wrap them in {@link SyncContextWebSocketHandler};</li>
 *   <li>STOMP ({@code @EnableWebSocketMessageBroker}): each session's context is opened on CONNECT and released
 *       on DISCONNECT or when its connection drops, and a {@code RendererSyncContext} parameter of a
 *       {@code @MessageMapping} method is the sending session's context; the frames for
 *       {@link dev.synccontext.spring.handler.OnContext @OnContext} methods are handled on it, in the
 *       order the socket received them ({@code StompFramesOnContext}).</li>
 * </ul>
 */
@AutoConfiguration(after = { SyncContextAutoConfiguration.class, SyncContextSessionAutoConfiguration.class })
@ConditionalOnWebApplication(type = Type.SERVLET)
@ConditionalOnClass({ RendererSyncContext.class, WebSocketHandler.class })
@ConditionalOnBean(SyncContextRegistry.class)
public final class SyncContextWebSocketAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    WebSocketSessionContexts webSocketSessionContexts(SyncContextRegistry registry) {
        return new WebSocketSessionContexts(registry);
    }

    @Bean(name = WebSocketSessionContext.BEAN, destroyMethod = "", defaultCandidate = false)
    @WebSocketSessionContext
    RendererSyncContext webSocketRendererSyncContext(SyncContextRegistry registry) {
        return new ScopedSyncContext(registry, WebSocketSessionContexts.SCOPE,
                new CurrentWebSocketSessionContext());
    }

    /**
     * Every WebSocket and SockJS endpoint copies the HTTP session's context handle into the WebSocket
     * session's attributes, for {@code @HttpSessionContext} parameters and {@link HttpSessionHandshakes#contextOf}.
     */
    @Bean
    @ConditionalOnBean(SessionContexts.class)
    static HttpSessionHandshakes syncContextHttpSessionHandshakes(ObjectProvider<SessionContexts> contexts) {
        return new HttpSessionHandshakes(contexts::getObject);
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.messaging.simp.SimpMessageHeaderAccessor")
    @ConditionalOnBean(type = "org.springframework.web.socket.config.annotation.DelegatingWebSocketMessageBrokerConfiguration")
    static class StompConfiguration {

        @Bean
        static SmartApplicationListener syncContextStompSessionOpener(WebSocketSessionContexts contexts) {
            return StompSessionContextEvents.opener(contexts);
        }

        @Bean
        static SmartApplicationListener syncContextStompSessionReleaser(WebSocketSessionContexts contexts) {
            return StompSessionContextEvents.releaser(contexts);
        }

        @Bean
        WebSocketMessageBrokerConfigurer syncContextStompArgumentResolver(WebSocketSessionContexts contexts,
                ObjectProvider<HttpSessionHandshakes> httpSessions) {
            return new WebSocketMessageBrokerConfigurer() {
                @Override
                public void addArgumentResolvers(List<HandlerMethodArgumentResolver> argumentResolvers) {
                    argumentResolvers.add(new StompSessionContextArgumentResolver(contexts));
                    httpSessions.ifAvailable(handshakes -> argumentResolvers.add(handshakes.argumentResolver()));
                }
            };
        }

        /**
         * {@code @OnContext} STOMP methods: their frames are handled on the session's context, in arrival order, and
         * what they send to clients waits for the application's {@link AnswerBarrier}s (write-through).
         */
        @Bean
        @Order(Ordered.LOWEST_PRECEDENCE) // after the application's inbound interceptors (security's authorization)
        WebSocketMessageBrokerConfigurer syncContextStompOnContext(WebSocketSessionContexts contexts,
                ObjectProvider<SimpAnnotationMethodMessageHandler> annotationHandler,
                ObjectProvider<AnswerBarrier> barriers, ObjectProvider<HttpSessionHandshakes> httpSessions,
                BeanFactory beanFactory) {
            StompReplies replies = new StompReplies(firstAsked(barriers), httpSessions::getIfAvailable,
                    () -> beanFactory.getBean("clientOutboundChannel", MessageChannel.class));
            StompFramesOnContext frames = new StompFramesOnContext(contexts, annotationHandler, replies);
            return new WebSocketMessageBrokerConfigurer() {
                @Override
                public void configureClientInboundChannel(ChannelRegistration registration) {
                    registration.interceptors(frames);
                }

                @Override
                public void configureClientOutboundChannel(ChannelRegistration registration) {
                    registration.interceptors(replies);
                }

                @Override
                public void configureMessageBroker(MessageBrokerRegistry registry) {
                    registry.configureBrokerChannel().interceptors(replies);
                }
            };
        }

        /** The barriers in their order, looked up at the first message (after startup) and kept. */
        private static java.util.function.Supplier<AnswerBarrier[]> firstAsked(ObjectProvider<AnswerBarrier> barriers) {
            AnswerBarrier[][] kept = new AnswerBarrier[1][];
            return () -> {
                AnswerBarrier[] all = kept[0];
                if (all == null) {
                    all = barriers.orderedStream().toArray(AnswerBarrier[]::new);
                    kept[0] = all; // a benign race: two first messages look up the same beans
                }
                return all;
            };
        }
    }

    /**
     * Deprecated setting {@code synccontext.scope=websocket}: the injected {@code rendererSyncContext}
     * resolves to the STOMP session's own context (opened by {@link StompConfiguration}).
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = "synccontext.scope", havingValue = "websocket")
    @ConditionalOnClass(name = "org.springframework.messaging.simp.SimpAttributes")
    static class DeprecatedWebSocketScopeConfiguration {

        @Bean(name = ScopedSyncContext.TARGET_BEAN, autowireCandidate = false, destroyMethod = "")
        @Scope(scopeName = "websocket", proxyMode = ScopedProxyMode.NO)
        RendererSyncContext webSocketScopedRendererSyncContext() {
            return new CurrentWebSocketSessionContext().getObject();
        }
    }
}
