package dev.synccontext.spring.webflux;

import dev.synccontext.testing.Browser;
import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.handler.ConcurrentPosts;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import dev.synccontext.spring.session.WebSessionContexts;
import dev.synccontext.testing.OnRandomPort;

/**
 * A WebFlux functional handler reaches its session's context through {@link WebSessionContexts} and
 * moves onto it with {@code publishOn(Schedulers.fromExecutor(context))}: counting with a plain field
 * stays exact under 8 concurrent clients of one session, over real HTTP.
 */
@OnRandomPort(classes = WebFluxFunctionalHandlerTest.App.class,
        properties = "spring.main.web-application-type=reactive")
class WebFluxFunctionalHandlerTest {

    static final int CLIENTS = 8;
    static final int PER_CLIENT = 50;

    @Test
    void perSessionCountingIsExactUnderEightConcurrentClients(Browser session, Browser otherSession) throws Exception {
        assertThat(session.get("/count").body()).isEqualTo("0"); // opens the session: every client shares its cookie
        assertThat(otherSession.post("/increment").body()).isEqualTo("1");

        ConcurrentPosts.postFromThreads(session, CLIENTS, PER_CLIENT, "/increment");

        assertThat(session.get("/count").body()).as("a plain int, %d concurrent increments on one session's context",
                CLIENTS * PER_CLIENT).isEqualTo(String.valueOf(CLIENTS * PER_CLIENT));
        assertThat(otherSession.get("/count").body()).as("another session has its own context and counter").isEqualTo("1");
        assertThat(session.get("/inside").body()).as("the handler's work ran inside the session's context").isEqualTo("true");
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {

        @Bean
        RouterFunction<ServerResponse> routes(WebSessionContexts contexts) {
            Counters counters = new Counters();
            return RouterFunctions.route()
                    .POST("/increment", request -> onContext(contexts, request, context -> counters.increment(context)))
                    .GET("/count", request -> onContext(contexts, request, context -> counters.read(context)))
                    .GET("/inside", request -> onContext(contexts, request, RendererSyncContext::checkAccess))
                    .build();
        }

        /** The documented pattern: the session's context, then publishOn it for the state-touching step. */
        static <T> Mono<ServerResponse> onContext(WebSessionContexts contexts, ServerRequest request,
                java.util.function.Function<RendererSyncContext, T> step) {
            return contexts.contextOf(request)
                    .flatMap(context -> Mono.just(context).publishOn(Schedulers.fromExecutor(context)).map(step))
                    .flatMap(value -> ServerResponse.ok().bodyValue(String.valueOf(value)));
        }
    }

    /** Per-context counters as plain ints: only a context's own callbacks touch its counter. */
    static final class Counters {
        private final java.util.Map<RendererSyncContext, int[]> byContext = new java.util.concurrent.ConcurrentHashMap<>();

        int increment(RendererSyncContext context) {
            context.assertAccess();
            int[] counter = byContext.computeIfAbsent(context, c -> new int[1]);
            int read = counter[0];
            for (int i = 0; i < 200; i++) {
                Thread.onSpinWait(); // widen the read-modify-write window a race would need
            }
            counter[0] = read + 1;
            return counter[0];
        }

        int read(RendererSyncContext context) {
            context.assertAccess();
            return byContext.computeIfAbsent(context, c -> new int[1])[0];
        }
    }
}
