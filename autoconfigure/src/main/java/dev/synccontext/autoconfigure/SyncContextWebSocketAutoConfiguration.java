package dev.synccontext.autoconfigure;

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
import org.springframework.context.event.SmartApplicationListener;
import org.springframework.messaging.handler.invocation.HandlerMethodArgumentResolver;
import org.springframework.web.socket.WebSocketHandler;
import org.springframework.web.socket.config.annotation.WebSocketMessageBrokerConfigurer;

/**
 * WebSocket session contexts, side by side with the HTTP session's (or request's) context of
 * {@link SyncContextAutoConfiguration}: the plain injected {@code RendererSyncContext} stays the HTTP one,
 * and each WebSocket session gets a context of scope {@value WebSocketSessionContexts#SCOPE} of its own.
 *
 * <ul>
 *   <li>{@link WebSocketSessionContexts}: opens, finds and releases a session's context;</li>
 *   <li>{@link WebSocketSessionContext @WebSocketSessionContext} {@code RendererSyncContext}: the qualified
 *       proxy (not a default candidate, so injection by type keeps meaning the HTTP one);</li>
 *   <li>plain WebSocket handlers: wrap them in {@link RendererSyncContextWebSocketHandler};</li>
 *   <li>STOMP ({@code @EnableWebSocketMessageBroker}): each session's context is opened on CONNECT and released
 *       on DISCONNECT or when its connection drops, and a {@code RendererSyncContext} parameter of a
 *       {@code @MessageMapping} method is the sending session's context.</li>
 * </ul>
 */
@AutoConfiguration(after = SyncContextAutoConfiguration.class)
@ConditionalOnWebApplication(type = Type.SERVLET)
@ConditionalOnClass({ RendererSyncContext.class, WebSocketHandler.class })
@ConditionalOnBean(RendererSyncContextRegistry.class)
public final class SyncContextWebSocketAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    WebSocketSessionContexts webSocketSessionContexts(RendererSyncContextRegistry registry) {
        return new WebSocketSessionContexts(registry);
    }

    @Bean(name = WebSocketSessionContext.BEAN, destroyMethod = "", defaultCandidate = false)
    @WebSocketSessionContext
    RendererSyncContext webSocketRendererSyncContext(RendererSyncContextRegistry registry) {
        return new ScopedRendererSyncContext(registry, WebSocketSessionContexts.SCOPE,
                new CurrentWebSocketSessionContext());
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
        WebSocketMessageBrokerConfigurer syncContextStompArgumentResolver(WebSocketSessionContexts contexts) {
            return new WebSocketMessageBrokerConfigurer() {
                @Override
                public void addArgumentResolvers(List<HandlerMethodArgumentResolver> argumentResolvers) {
                    argumentResolvers.add(new StompSessionContextArgumentResolver(contexts));
                }
            };
        }
    }
}
