package dev.synccontext.spring.session;

import dev.synccontext.autoconfigure.session.SyncContextSessionAutoConfiguration;


import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import jakarta.servlet.http.HttpSessionEvent;
import java.time.Duration;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.mock.web.MockHttpSession;
import org.springframework.session.MapSession;
import org.springframework.session.events.SessionDeletedEvent;
import org.springframework.session.events.SessionExpiredEvent;
import dev.synccontext.autoconfigure.SyncContextAutoConfiguration;
import dev.synccontext.registry.ContextTemplate;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.autoconfigure.mvc.SyncContextMvcAutoConfiguration;
import dev.synccontext.autoconfigure.propagation.SyncContextPropagationAutoConfiguration;
import dev.synccontext.autoconfigure.webflux.SyncContextWebFluxAutoConfiguration;

/** Each way a session's end reaches its node's context, one rule per test (the cluster tests run them for real). */
class SessionReleasePathsTest {

    private final SyncContextRegistry registry = new SyncContextRegistry(
            ContextTemplate.defaults(ForkJoinPool.commonPool(), "common-pool"));
    private final SessionContexts sessions = new SessionContexts(registry, "session", "node-a", Duration.ofHours(1));

    @AfterEach
    void closeRegistry() {
        registry.close();
    }

    @Test
    void theServletListenerReleasesTheContextNamedByTheDestroyedSessionsHandle() {
        SessionContexts.Binding binding = sessions.bind(null, "s1");
        MockHttpSession session = new MockHttpSession();
        session.setAttribute(SessionHandle.ATTRIBUTE, binding.attributeToWrite());
        SessionContextReleasingListener listener = new SessionContextReleasingListener(sessions);

        listener.sessionDestroyed(new HttpSessionEvent(session));
        listener.sessionDestroyed(new HttpSessionEvent(session)); // Spring Session and the container may both call

        assertThat(binding.context().isClosed()).isTrue();
        assertThat(sessions.endedReleases()).as("released once").isEqualTo(1);
        listener.sessionDestroyed(new HttpSessionEvent(new MockHttpSession())); // a session that never had a context
    }

    @Test
    void springSessionsDestroyedEventsReleaseWebSessionContexts() {
        SessionContextsPair pair = new SessionContextsPair();
        SessionDestroyedEventReleaser releaser = new SessionDestroyedEventReleaser(sessions);

        releaser.onApplicationEvent(new SessionDeletedEvent(this, pair.session));
        assertThat(pair.context.isClosed()).isTrue();

        SessionContextsPair expired = new SessionContextsPair();
        releaser.onApplicationEvent(new SessionExpiredEvent(this, expired.session));
        assertThat(expired.context.isClosed()).isTrue();
        assertThat(sessions.endedReleases()).isEqualTo(2);
    }

    @Test
    void reactiveApplicationsListenForSpringSessionEventsOnlyWhenSpringSessionIsPresent() {
        ReactiveWebApplicationContextRunner reactive = new ReactiveWebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(SyncContextAutoConfiguration.class,
                    SyncContextSessionAutoConfiguration.class, SyncContextWebFluxAutoConfiguration.class,
                    SyncContextMvcAutoConfiguration.class, SyncContextPropagationAutoConfiguration.class));
        reactive.run(context -> assertThat(context).hasSingleBean(SessionDestroyedEventReleaser.class)
                .hasSingleBean(SessionContexts.class));
        reactive.withClassLoader(new FilteredClassLoader("org.springframework.session"))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(SessionDestroyedEventReleaser.class)
                        .hasSingleBean(WebSessionContexts.class));
    }

    /** A Spring Session session holding the handle of a context made for it on node-a. */
    private final class SessionContextsPair {
        final MapSession session = new MapSession();
        final RendererSyncContext context;

        SessionContextsPair() {
            SessionContexts.Binding binding = sessions.bind(null, session.getId());
            session.setAttribute(SessionHandle.ATTRIBUTE, binding.attributeToWrite());
            context = binding.context();
        }
    }
}
