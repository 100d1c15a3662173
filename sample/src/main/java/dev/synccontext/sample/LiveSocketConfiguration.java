package dev.synccontext.sample;

import dev.synccontext.spring.live.LiveWebSocket;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.socket.config.annotation.EnableWebSocket;
import org.springframework.web.socket.config.annotation.WebSocketConfigurer;
import org.springframework.web.socket.config.annotation.WebSocketHandlerRegistry;
import tools.jackson.databind.json.JsonMapper;

/** The board's WebSocket live channel at {@code /api/live} (same origin only, Spring's default). */
@Configuration(proxyBeanMethods = false)
@EnableWebSocket
class LiveSocketConfiguration implements WebSocketConfigurer {

    private final BoardSocketHandler handler;

    LiveSocketConfiguration(Board board, LiveWebSocket live, JsonMapper json) {
        this.handler = new BoardSocketHandler(board, live, json);
    }

    @Override
    public void registerWebSocketHandlers(WebSocketHandlerRegistry registry) {
        registry.addHandler(handler, "/api/live").addInterceptors(handler);
    }
}
