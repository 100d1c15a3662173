package dev.synccontext.spring.mvc;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Counts the servlet container's ASYNC dispatches in the {@code asyncDispatches} bean, so a test can tell an
 * answer written at once from one that went through an asynchronous dispatch.
 */
@Configuration(proxyBeanMethods = false)
class AsyncDispatchCounter {

    @Bean
    AtomicInteger asyncDispatches() {
        return new AtomicInteger();
    }

    @Bean
    FilterRegistrationBean<Filter> asyncDispatchCounter(AtomicInteger asyncDispatches) {
        FilterRegistrationBean<Filter> registration = new FilterRegistrationBean<>((request, response, chain) -> {
            asyncDispatches.incrementAndGet();
            chain.doFilter(request, response);
        });
        registration.setDispatcherTypes(DispatcherType.ASYNC);
        return registration;
    }
}
