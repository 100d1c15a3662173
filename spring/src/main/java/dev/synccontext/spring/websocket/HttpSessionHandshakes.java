package dev.synccontext.spring.websocket;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.session.SessionContexts;
import jakarta.servlet.http.HttpSession;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.MethodParameter;
import org.springframework.http.server.ServerHttpRequest;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.http.server.ServletServerHttpRequest;
import org.springframework.messaging.Message;
import org.springframework.messaging.handler.invocation.HandlerMethodArgumentResolver;
import org.springframework.messaging.simp.SimpMessageHeaderAccessor;
import org.springframework.web.servlet.handler.AbstractUrlHandlerMapping;
import org.springframework.web.socket.WebSocketHandler;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.server.HandshakeInterceptor;
import org.springframework.web.socket.server.support.WebSocketHttpRequestHandler;
import org.springframework.web.socket.sockjs.support.SockJsHttpRequestHandler;
import org.springframework.web.socket.sockjs.transport.TransportHandlingSockJsService;

/**
 * A WebSocket or STOMP session reaches the context of the HTTP session it was opened from, with no
 * handshake interceptor of the application's.
 *
 * <h2>Guarantees</h2>
 * <ul>
 * <li>Every WebSocket and SockJS endpoint of the application gets, first in its chain, an interceptor that
 * copies the HTTP session's context handle (the session attribute of {@link SessionContexts}) into the
 * WebSocket session's attributes; an HTTP session with no context yet gets one at the handshake, as on its
 * first request. A handshake without an HTTP session creates none.</li>
 * <li>{@link #contextOf(WebSocketSession)} and {@link #contextOf(Map)} (STOMP session attributes), and a
 * {@link HttpSessionContext @HttpSessionContext} {@code RendererSyncContext} parameter, give that context:
 * the same one the user's HTTP requests run on, so its {@code @ContextScoped} beans are the user's. Never
 * another session's: the handle travels only inside this socket's own attributes.</li>
 * <li>After the HTTP session ended (or on another node), nothing is found: the lookup is empty and the
 * parameter fails, rather than a fresh context be made that no HTTP request would ever see.</li>
 * </ul>
 */
public final class HttpSessionHandshakes implements HandshakeInterceptor, BeanPostProcessor {

    private final Supplier<SessionContexts> contexts;

    public HttpSessionHandshakes(Supplier<SessionContexts> contexts) {
        this.contexts = contexts;
    }

    /** The context of the HTTP session {@code session} was opened from, if it had one and it is still open. */
    public Optional<RendererSyncContext> contextOf(WebSocketSession session) {
        return contextOf(session.getAttributes());
    }

    /** As {@link #contextOf(WebSocketSession)}, from the WebSocket (or STOMP) session's attributes. */
    public Optional<RendererSyncContext> contextOf(@Nullable Map<String, Object> sessionAttributes) {
        return sessionAttributes == null ? Optional.empty()
                : contexts.get().find(sessionAttributes.get(SessionContexts.SESSION_ATTRIBUTE));
    }

    @Override
    public boolean beforeHandshake(ServerHttpRequest request, ServerHttpResponse response, WebSocketHandler handler,
            Map<String, Object> attributes) {
        if (request instanceof ServletServerHttpRequest servlet) {
            HttpSession session = servlet.getServletRequest().getSession(false);
            if (session != null) {
                String handle = contexts.get().bindHandle(session.getAttribute(SessionContexts.SESSION_ATTRIBUTE),
                        session.getId(), value -> session.setAttribute(SessionContexts.SESSION_ATTRIBUTE, value));
                attributes.put(SessionContexts.SESSION_ATTRIBUTE, handle);
            }
        }
        return true;
    }

    @Override
    public void afterHandshake(ServerHttpRequest request, ServerHttpResponse response, WebSocketHandler handler,
            @Nullable Exception exception) {
    }

    /** Adds this interceptor first to each WebSocket and SockJS endpoint of a handler mapping. */
    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof AbstractUrlHandlerMapping mapping) {
            for (Object handler : mapping.getHandlerMap().values()) {
                if (handler instanceof WebSocketHttpRequestHandler webSocket) {
                    webSocket.setHandshakeInterceptors(withThisFirst(webSocket.getHandshakeInterceptors()));
                } else if (handler instanceof SockJsHttpRequestHandler sockJs
                        && sockJs.getSockJsService() instanceof TransportHandlingSockJsService service) {
                    service.setHandshakeInterceptors(withThisFirst(service.getHandshakeInterceptors()));
                }
            }
        }
        return bean;
    }

    private List<HandshakeInterceptor> withThisFirst(List<HandshakeInterceptor> interceptors) {
        List<HandshakeInterceptor> all = new ArrayList<>(interceptors.size() + 1);
        all.add(this);
        interceptors.stream().filter(i -> i != this).forEach(all::add);
        return all;
    }

    /** The resolver of {@link HttpSessionContext @HttpSessionContext} {@code RendererSyncContext} parameters. */
    public HandlerMethodArgumentResolver argumentResolver() {
        return new HandlerMethodArgumentResolver() {
            @Override
            public boolean supportsParameter(MethodParameter parameter) {
                return parameter.getParameterType() == RendererSyncContext.class
                        && parameter.hasParameterAnnotation(HttpSessionContext.class);
            }

            @Override
            public Object resolveArgument(MethodParameter parameter, Message<?> message) {
                return contextOf(SimpMessageHeaderAccessor.getSessionAttributes(message.getHeaders()))
                        .orElseThrow(() -> new IllegalStateException("This STOMP session has no HTTP session context:"
                                + " its handshake carried no HTTP session (the client connected without the session"
                                + " cookie), or that session ended or lives on another node. Parameter of "
                                + parameter.getExecutable().toGenericString()));
            }
        };
    }
}
