package dev.synccontext.autoconfigure;

import dev.synccontext.autoconfigure.SyncContextProperties.Scope;
import java.util.Arrays;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import dev.synccontext.autoconfigure.websocket.SyncContextWebSocketAutoConfiguration;

/**
 * {@code synccontext.scope=websocket} needs the {@code websocket} bean scope that STOMP messaging registers,
 * and is deprecated in favour of WebSocket session contexts side by side with the HTTP ones
 * ({@link SyncContextWebSocketAutoConfiguration}).
 */
final class WebSocketScopeCheck {

    private static final Log LOG = LogFactory.getLog(WebSocketScopeCheck.class);

    private WebSocketScopeCheck() {
    }

    static void check(Scope scope, ConfigurableListableBeanFactory beanFactory) {
        if (scope == Scope.WEBSOCKET) {
            LOG.warn("synccontext.scope=websocket is deprecated: it makes the plain injected RendererSyncContext the"
                    + " STOMP session's, leaving HTTP sessions without one. WebSocket session contexts now come side"
                    + " by side with the HTTP session's: declare a RendererSyncContext parameter on @MessageMapping"
                    + " methods, or inject @WebSocketSessionContext RendererSyncContext, and leave synccontext.scope"
                    + " at session (or request).");
        }
        if (scope == Scope.WEBSOCKET && !Arrays.asList(beanFactory.getRegisteredScopeNames()).contains("websocket")) {
            throw new InvalidConfigurationPropertyValueException("synccontext.scope", "websocket",
                    "The websocket scope exists only with STOMP messaging: add spring-websocket and"
                            + " spring-messaging and a configuration with @EnableWebSocketMessageBroker, or use"
                            + " session or request.");
        }
    }
}
