package dev.synccontext.autoconfigure.mvc;

import dev.synccontext.spring.mvc.CompletedFutureReturnValueHandler;
import dev.synccontext.spring.mvc.OnContextHandlerAdapter;
import dev.synccontext.spring.mvc.OnContextMethodsCheck;
import dev.synccontext.spring.mvc.ShuttingDownExceptionResolver;

import dev.synccontext.autoconfigure.SyncContextAutoConfiguration;
import dev.synccontext.registry.SyncContextRegistry;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.webmvc.autoconfigure.WebMvcRegistrations;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter;

/**
 * Spring MVC: a controller's already-completed {@code CompletableFuture} (an inline
 * {@code invokeAsync} on an idle context) is written at once, without an async dispatch (see
 * {@link CompletedFutureReturnValueHandler}; off with {@code synccontext.mvc.write-completed-futures=false}),
 * and {@code @OnContext} handler methods run on their context (see {@link OnContextHandlerAdapter}; the
 * starter's {@code WebMvcRegistrations} backs off when the application has one, and
 * {@code synccontext.mvc.on-context=false} removes it; {@link OnContextMethodsCheck} fails the startup when an
 * annotated method would then run off its context). A request refused because the application is shutting
 * down answers {@code 503} ({@link ShuttingDownExceptionResolver}).
 */
@AutoConfiguration(after = SyncContextAutoConfiguration.class)
@ConditionalOnWebApplication(type = Type.SERVLET)
@ConditionalOnClass(RequestMappingHandlerAdapter.class)
@ConditionalOnBean(SyncContextRegistry.class)
public final class SyncContextMvcAutoConfiguration {

    @Bean
    @ConditionalOnBooleanProperty(name = "synccontext.mvc.write-completed-futures", matchIfMissing = true)
    static BeanPostProcessor syncContextCompletedFutureReturnValueHandler() {
        return CompletedFutureReturnValueHandler.installer();
    }

    /** A request refused because the application is shutting down answers 503, not 500. */
    @Bean
    static ShuttingDownExceptionResolver syncContextShuttingDownExceptionResolver() {
        return new ShuttingDownExceptionResolver();
    }

    @Bean
    static OnContextMethodsCheck syncContextOnContextMethodsCheck(ListableBeanFactory beans) {
        return new OnContextMethodsCheck(beans);
    }

    /** Boot takes the adapter from a unique {@code WebMvcRegistrations} bean: ours only when there is none. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(WebMvcRegistrations.class)
    @ConditionalOnBooleanProperty(name = "synccontext.mvc.on-context", matchIfMissing = true)
    static class OnContextConfiguration {

        @Bean
        @ConditionalOnMissingBean(WebMvcRegistrations.class)
        WebMvcRegistrations syncContextWebMvcRegistrations() {
            return new WebMvcRegistrations() {
                @Override
                public RequestMappingHandlerAdapter getRequestMappingHandlerAdapter() {
                    return new OnContextHandlerAdapter();
                }
            };
        }
    }
}
