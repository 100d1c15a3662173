package dev.synccontext.spring.webflux;

import dev.synccontext.RendererSyncContext;
import org.springframework.core.MethodParameter;
import org.springframework.web.reactive.BindingContext;
import org.springframework.web.reactive.result.method.HandlerMethodArgumentResolver;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import dev.synccontext.spring.session.WebSessionContexts;

/**
 * Gives a WebFlux controller method the {@link RendererSyncContext} of its {@code WebSession}: declare
 * a parameter of that type.
 *
 * @param contexts the {@code WebSession}s' contexts
 */
public record WebSessionContextArgumentResolver(WebSessionContexts contexts) implements HandlerMethodArgumentResolver {

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return parameter.getParameterType() == RendererSyncContext.class;
    }

    @Override
    public Mono<Object> resolveArgument(MethodParameter parameter, BindingContext bindingContext,
            ServerWebExchange exchange) {
        return contexts.contextOf(exchange).map(context -> context);
    }
}
