package dev.synccontext.autoconfigure;

import dev.synccontext.autoconfigure.SyncContextProperties.Scope;
import java.util.Arrays;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/** {@code synccontext.scope=websocket} needs the {@code websocket} bean scope that STOMP messaging registers. */
final class WebSocketScopeCheck {

    private WebSocketScopeCheck() {
    }

    static void check(Scope scope, ConfigurableListableBeanFactory beanFactory) {
        if (scope == Scope.WEBSOCKET && !Arrays.asList(beanFactory.getRegisteredScopeNames()).contains("websocket")) {
            throw new InvalidConfigurationPropertyValueException("synccontext.scope", "websocket",
                    "The websocket scope exists only with STOMP messaging: add spring-websocket and"
                            + " spring-messaging and a configuration with @EnableWebSocketMessageBroker, or use"
                            + " session or request.");
        }
    }
}
