package dev.synccontext.cluster;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.session.WebSessionContexts;
import java.util.function.Function;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.WebSession;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The WebFlux counterpart of {@link ClusterApp}: functional handlers on reactive Spring Session Data
 * Redis, reaching the session's context through {@link WebSessionContexts} and running the
 * state-touching step on it with {@code subscribeOn(Schedulers.fromExecutor(context))}. Started with
 * {@code spring.main.web-application-type=reactive}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class ReactiveClusterApp {

    @Bean
    RouterFunction<ServerResponse> routes(WebSessionContexts contexts, Environment environment) {
        String node = environment.getProperty("synccontext.session.node-id", "?");
        return RouterFunctions.route()
                .POST("/increment", request -> request.session().flatMap(session -> onContext(contexts, session, context -> {
                    context.assertAccess();
                    int next = (Integer) session.getAttributes().getOrDefault("count", 0) + 1;
                    session.getAttributes().put("count", next);
                    return next;
                })).flatMap(value -> answer(node, value)))
                .GET("/context", request -> request.session()
                        .flatMap(session -> onContext(contexts, session, RendererSyncContext::name))
                        .flatMap(value -> answer(node, value)))
                .POST("/login", request -> request.session()
                        .flatMap(session -> session.changeSessionId().then(onContext(contexts, session, RendererSyncContext::name)))
                        .flatMap(value -> answer(node, value)))
                .POST("/logout", request -> request.session().flatMap(WebSession::invalidate)
                        .then(answer(node, "ended")))
                .build();
    }

    private static <T> Mono<T> onContext(WebSessionContexts contexts, WebSession session,
            Function<RendererSyncContext, T> step) {
        RendererSyncContext context = contexts.contextOf(session);
        return Mono.fromCallable(() -> step.apply(context)).subscribeOn(Schedulers.fromExecutor(context));
    }

    private static Mono<ServerResponse> answer(String node, Object value) {
        return ServerResponse.ok().header("X-Node", node).bodyValue(String.valueOf(value));
    }
}
