package dev.synccontext.autoconfigure.webflux;

import dev.synccontext.spring.webflux.OnContextHandlers;
import dev.synccontext.spring.webflux.ShuttingDownWebExceptionHandler;
import dev.synccontext.spring.webflux.WebSessionContextArgumentResolver;

import dev.synccontext.spring.session.SessionContexts;
import dev.synccontext.autoconfigure.session.SyncContextSessionAutoConfiguration;
import java.time.Duration;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.web.filter.reactive.ServerWebExchangeContextFilter;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.context.annotation.Bean;
import org.springframework.web.reactive.config.WebFluxConfigurer;
import org.springframework.web.reactive.result.method.annotation.ArgumentResolverConfigurer;
import dev.synccontext.spring.session.WebSessionContexts;

/**
 * WebFlux: a {@code WebSession}'s context ({@link WebSessionContexts}, the node's {@link SessionContexts}
 * found by the handle in the session's attributes) and the argument resolver that hands it to annotated
 * handler methods declaring a {@code RendererSyncContext} parameter, and {@code @OnContext} controllers, whose
 * method bodies run on that context ({@link OnContextHandlers}). WebFlux has no session scope, so there is no
 * injected proxy here. A request refused because the application is shutting down answers {@code 503}
 * ({@link ShuttingDownWebExceptionHandler}).
 */
@AutoConfiguration(after = SyncContextSessionAutoConfiguration.class)
@ConditionalOnWebApplication(type = Type.REACTIVE)
@ConditionalOnClass(WebFluxConfigurer.class)
@ConditionalOnBean(SessionContexts.class)
public final class SyncContextWebFluxAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    WebSessionContexts syncContextWebSessionContexts(SessionContexts contexts) {
        return new WebSessionContexts(contexts, Duration.ofSeconds(30));
    }

    /** {@code @OnContext} controllers: proxied so that their bodies run on the WebSession's context. */
    @Bean
    static OnContextHandlers syncContextOnContextHandlers(ObjectProvider<WebSessionContexts> contexts) {
        return new OnContextHandlers(contexts::getObject);
    }

    /** A request refused because the application is shutting down answers 503, not 500. */
    @Bean
    static ShuttingDownWebExceptionHandler syncContextShuttingDownWebExceptionHandler() {
        return new ShuttingDownWebExceptionHandler();
    }

    /** Puts the exchange in the Reactor context, where an {@code @OnContext} body finds its WebSession. */
    @Bean
    @ConditionalOnMissingBean
    ServerWebExchangeContextFilter syncContextServerWebExchangeContextFilter() {
        return new ServerWebExchangeContextFilter();
    }

    @Bean
    WebFluxConfigurer syncContextWebFluxConfigurer(WebSessionContexts contexts) {
        return new WebFluxConfigurer() {
            @Override
            public void configureArgumentResolvers(ArgumentResolverConfigurer configurer) {
                configurer.addCustomResolver(new WebSessionContextArgumentResolver(contexts));
            }
        };
    }
}
