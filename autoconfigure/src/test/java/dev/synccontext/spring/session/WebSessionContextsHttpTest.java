package dev.synccontext.spring.session;


import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.testing.Browser;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import dev.synccontext.registry.ContextTemplate;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.testing.OnRandomPort;

/** WebFlux has no session scope: a controller parameter of type RendererSyncContext gets its WebSession's. */
@OnRandomPort(classes = WebSessionContextsHttpTest.App.class, properties = "spring.main.web-application-type=reactive")
class WebSessionContextsHttpTest {

    @Autowired
    WebSessionContexts contexts;

    @Test
    void aControllerGetsTheContextOfItsWebSession(Browser alice, Browser bob) {
        TwoSessions contexts = TwoSessions.ask(alice, bob, "/context");
        assertThat(alice.get("/inside").body()).isEqualTo(contexts.first() + " true");
    }

    @Test
    void anInvalidatedWebSessionsContextIsReleasedByTheSweep() {
        SyncContextRegistry registry = new SyncContextRegistry(
                ContextTemplate.defaults(java.util.concurrent.ForkJoinPool.commonPool(), "common-pool"));
        WebSessionContexts perSession = perSession(registry);
        org.springframework.web.server.session.InMemoryWebSessionStore store =
                new org.springframework.web.server.session.InMemoryWebSessionStore();
        org.springframework.web.server.WebSession session = store.createWebSession().block();
        RendererSyncContext context = perSession.contextOf(session);
        assertThat(perSession.contextOf(session)).isSameAs(context);
        assertThat(perSession.sweep()).as("a live session keeps its context").isZero();
        session.invalidate().block();
        assertThat(perSession.sweep()).isEqualTo(1);
        assertThat(context.isClosed()).isTrue();
        assertThat(registry.statistics("session").contexts()).isZero();
    }

    @Test
    void aSessionItsStoreAnswersOnAnotherThreadGivesItsContextOffThatThread() {
        SyncContextRegistry registry = new SyncContextRegistry(
                ContextTemplate.defaults(java.util.concurrent.ForkJoinPool.commonPool(), "common-pool"));
        WebSessionContexts perSession = perSession(registry);
        org.springframework.web.server.WebSession session =
                new org.springframework.web.server.session.InMemoryWebSessionStore().createWebSession().block();
        // A reactive session store answers on its own I/O thread (Lettuce's event loop for Spring Session on Redis).
        reactor.core.scheduler.Scheduler storeIo = reactor.core.scheduler.Schedulers.newSingle("store-io");
        try {
            org.springframework.mock.web.server.MockServerWebExchange loaded = org.springframework.mock.web.server
                    .MockServerWebExchange.builder(org.springframework.mock.http.server.reactive.MockServerHttpRequest
                            .get("/").build())
                    .sessionManager(exchange -> Mono.just(session).publishOn(storeIo)).build();
            String thread = perSession.contextOf(loaded).map(context -> Thread.currentThread().getName()).block();
            assertThat(thread).as("what runs next runs inline on the context: never on the store's thread")
                    .doesNotStartWith("store-io").startsWith("parallel-");

            org.springframework.mock.web.server.MockServerWebExchange atHand = org.springframework.mock.web.server
                    .MockServerWebExchange.builder(org.springframework.mock.http.server.reactive.MockServerHttpRequest
                            .get("/").build())
                    .sessionManager(exchange -> Mono.just(session)).build();
            Thread caller = Thread.currentThread();
            assertThat(perSession.contextOf(atHand).map(context -> Thread.currentThread()).block())
                    .as("a session at hand costs no hop").isSameAs(caller);
        } finally {
            storeIo.dispose();
            registry.close();
        }
    }

    /** WebSession contexts on {@code registry}, with an idle timeout and a sweep interval of an hour. */
    private static WebSessionContexts perSession(SyncContextRegistry registry) {
        return new WebSessionContexts(new SessionContexts(registry, "session", "node-a", java.time.Duration.ofHours(1)),
                java.time.Duration.ofHours(1));
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(ReactiveController.class)
    static class App {
    }

    @RestController
    static class ReactiveController {

        @GetMapping("/context")
        Mono<String> context(RendererSyncContext context) {
            return Mono.just(context.name());
        }

        @GetMapping("/inside")
        Mono<String> inside(RendererSyncContext context) {
            return Mono.fromFuture(context.invokeAsync(() -> context.name() + " " + context.checkAccess()));
        }
    }
}
