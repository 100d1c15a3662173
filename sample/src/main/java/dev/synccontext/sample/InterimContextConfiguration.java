package dev.synccontext.sample;

import dev.synccontext.RendererSyncContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Scope;
import org.springframework.context.annotation.ScopedProxyMode;
import org.springframework.web.context.WebApplicationContext;
import org.springframework.web.context.request.RequestContextHolder;

/** Stand-in for the starter until it lands: one context per HTTP session, behind a scoped proxy. */
@Configuration(proxyBeanMethods = false)
class InterimContextConfiguration {

    @Bean(destroyMethod = "close")
    @Scope(value = WebApplicationContext.SCOPE_SESSION, proxyMode = ScopedProxyMode.INTERFACES)
    RendererSyncContext rendererSyncContext() {
        return RendererSyncContext.builder()
                .name("session-" + RequestContextHolder.currentRequestAttributes().getSessionId())
                .build();
    }
}
