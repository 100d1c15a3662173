package dev.synccontext.spring.webflux;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.handler.OverlapTally;
import dev.synccontext.spring.scope.NoCurrentContextException;
import dev.synccontext.testing.Browser;
import dev.synccontext.testing.OnRandomPort;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * A {@code @ContextScoped} bean in a WebFlux application, over real HTTP on Netty: inside a callback of the
 * WebSession's context (an {@code @OnContext} body, {@code invokeAsync} on a {@code RendererSyncContext}
 * parameter) it is that session's instance; called from a plain handler or an operator, where WebFlux binds no
 * request to the thread, it fails with a {@link NoCurrentContextException} that names the thread and both fixes,
 * instead of resolving some instance.
 */
@OnRandomPort(classes = ContextScopedWebFluxHttpTest.App.class,
        properties = "spring.main.web-application-type=reactive")
class ContextScopedWebFluxHttpTest {

    @Test
    void insideACallbackOfTheWebSessionsContextTheBeanIsThatSessionsInstance(Browser alice, Browser bob) {
        alice.get("/plain/context");
        bob.get("/plain/context");
        alice.post("/flux/increment");
        alice.post("/flux/increment");
        bob.post("/flux/increment");
        assertThat(alice.get("/off/invoke").body()).as("through invokeAsync on the session's context").isEqualTo("2 max-inside 1");
        assertThat(bob.get("/off/invoke").body()).isEqualTo("1 max-inside 1");
        assertThat(alice.get("/flux/tally").body()).as("in an @OnContext body").isEqualTo("2 max-inside 1");
    }

    @Test
    void calledFromAPlainHandlerOrAnOperatorItFailsNamingTheThreadAndTheFixes(Browser carol) {
        carol.get("/plain/context");
        for (String path : new String[] { "/off/handler", "/off/operator" }) {
            HttpResponse<String> reply = carol.get(path);
            assertThat(reply.statusCode()).as(path + ": " + reply.body()).isEqualTo(409);
            assertThat(reply.body()).as(path).startsWith("no context: Context-scoped bean 'scopedTarget.")
                    .contains("was called on thread '")
                    .contains("WebFlux binds no request to a thread")
                    .contains("from an @OnContext handler method")
                    .contains("inside context.invokeAsync(...) with the WebSession's context");
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({ OverlapTally.class, OnContextWebFluxHttpTest.OnFluxController.class,
            OnContextWebFluxHttpTest.PlainController.class, OffCallbackController.class })
    static class App {
    }

    /** No {@code @OnContext}: the bean is called where WebFlux runs the handler, and where its operators run. */
    @RestController
    record OffCallbackController(OverlapTally tally) {

        @GetMapping("/off/handler")
        Mono<String> inTheHandler() {
            return Mono.just(tally.report());
        }

        @GetMapping("/off/operator")
        Mono<String> inAnOperator() {
            return Mono.fromCallable(tally::report);
        }

        @GetMapping("/off/invoke")
        Mono<String> insideACallback(RendererSyncContext context) {
            return Mono.fromFuture(context.invokeAsync(tally::report));
        }

        @ExceptionHandler(NoCurrentContextException.class)
        ResponseEntity<String> noContext(NoCurrentContextException e) {
            return ResponseEntity.status(HttpStatus.CONFLICT).body("no context: " + e.getMessage());
        }
    }
}
