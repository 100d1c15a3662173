package com.example.plain;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.spring.ScopedSyncContext;
import dev.synccontext.spring.config.EnableSyncContext;
import dev.synccontext.spring.mvc.OnContextHandlerAdapter;
import dev.synccontext.spring.mvc.OnContextMethodsCheck;
import dev.synccontext.spring.session.CurrentHttpSessionContext;
import dev.synccontext.spring.session.SessionContextReleasingListener;
import dev.synccontext.spring.session.SessionContexts;
import java.time.Duration;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurationSupport;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter;

/** Spring MVC without Spring Boot: {@code @OnContext} handler methods run on their HTTP session's context. */
@Configuration
@EnableSyncContext
public class WebConfiguration extends WebMvcConfigurationSupport {

    /** The adapter that runs an {@code @OnContext} method's body on its context. */
    @Override
    protected RequestMappingHandlerAdapter createRequestMappingHandlerAdapter() {
        return new OnContextHandlerAdapter();
    }

    /** One context per HTTP session on this node; released after 30 minutes without a request, or at shutdown. */
    @Bean(destroyMethod = "close")
    SessionContexts sessionContexts(SyncContextRegistry registry) {
        SessionContexts contexts = new SessionContexts(registry, "session", "node-1", Duration.ofMinutes(30));
        contexts.startIdleEviction();
        return contexts;
    }

    /** Releases a session's context when the session ends, once registered with the servlet container. */
    @Bean
    SessionContextReleasingListener sessionContextReleasingListener(SessionContexts contexts) {
        return new SessionContextReleasingListener(contexts);
    }

    /** The context {@code @OnContext} runs on, and the one injected: the running callback's, else the session's. */
    @Bean(destroyMethod = "")
    RendererSyncContext rendererSyncContext(SyncContextRegistry registry, SessionContexts contexts) {
        return new ScopedSyncContext(registry, "session", new CurrentHttpSessionContext(contexts)::current);
    }

    /** Fails the startup when an {@code @OnContext} method would run off its context. */
    @Bean
    static OnContextMethodsCheck onContextMethodsCheck(ListableBeanFactory beans) {
        return new OnContextMethodsCheck(beans);
    }
}
