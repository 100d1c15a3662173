package dev.synccontext.spring.websocket;

import org.springframework.context.annotation.Configuration;
import org.springframework.messaging.simp.config.MessageBrokerRegistry;
import org.springframework.web.socket.config.annotation.EnableWebSocketMessageBroker;
import org.springframework.web.socket.config.annotation.StompEndpointRegistry;
import org.springframework.web.socket.config.annotation.WebSocketMessageBrokerConfigurer;

/**
 * The STOMP broker of the tests that use STOMP: endpoint {@code /stomp}, a simple broker on {@code /topic},
 * application destinations under {@code /app}. A test that needs other broker destinations or Spring's ordering
 * options imports a subclass that names them.
 */
@Configuration(proxyBeanMethods = false)
@EnableWebSocketMessageBroker
public class StompBroker implements WebSocketMessageBrokerConfigurer {
    @Override
    public void registerStompEndpoints(StompEndpointRegistry registry) {
        registry.addEndpoint("/stomp");
    }

    @Override
    public void configureMessageBroker(MessageBrokerRegistry registry) {
        registry.enableSimpleBroker(brokerDestinations());
        registry.setApplicationDestinationPrefixes("/app");
    }

    /** The destination prefixes of the simple broker. */
    protected String[] brokerDestinations() {
        return new String[] { "/topic" };
    }
}
