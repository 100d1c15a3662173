package dev.synccontext.spring.webflux;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.mvc.IllegalStateAsConflict;
import dev.synccontext.autoconfigure.AllParts;
import dev.synccontext.spring.handler.ConcurrentPosts;
import dev.synccontext.spring.handler.OnContext;
import dev.synccontext.spring.handler.OverlapTally;
import dev.synccontext.spring.session.TwoSessions;
import dev.synccontext.testing.Browser;
import dev.synccontext.testing.OnRandomPort;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@code @OnContext} WebFlux controllers over real HTTP on Netty: the body runs on the WebSession's context,
 * one at a time per session, and what it throws reaches the controller's {@code @ExceptionHandler}.
 */
@OnRandomPort(classes = OnContextWebFluxHttpTest.App.class, properties = "spring.main.web-application-type=reactive")
class OnContextWebFluxHttpTest {

    @Test
    void fourHundredConcurrentRequestsOfOneWebSessionRunOneAtATimeAndLoseNothing(Browser alice) {
        alice.get("/plain/context");
        ConcurrentPosts.assertIncrementsRunOneAtATime(alice, 400, "/flux");
    }

    @Test
    void theBodyRunsOnItsWebSessionsContext(Browser bob, Browser carol) {
        TwoSessions contexts = TwoSessions.ask(bob, carol, "/plain/context");
        assertThat(bob.get("/flux/where").body()).isEqualTo(contexts.first() + " true");
        assertThat(carol.get("/flux/where").body()).isEqualTo(contexts.second() + " true");
        assertThat(bob.get("/flux/letters").body()).as("a Flux<String> is written as text")
                .isEqualTo(contexts.first() + "ab");
    }

    @Test
    void whatTheBodyThrowsReachesTheExceptionHandler(Browser dave) {
        dave.get("/plain/context");
        HttpResponse<String> reply = dave.get("/flux/fail");
        assertThat(reply.statusCode()).isEqualTo(409);
        assertThat(reply.body()).isEqualTo("handled: failed on its context true");
    }

    @Test
    void aMethodThatCannotWaitForABusyContextIsRefusedAtStartup() {
        AllParts.reactive().withBean(NotReactiveController.class).run(context -> assertThat(context).getFailure()
                .rootCause().hasMessageContaining("@OnContext WebFlux handler NotReactiveController#hello returns String")
                .hasMessageContaining("Return a Mono or Flux"));
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({ OverlapTally.class, OnFluxController.class, PlainController.class })
    static class App {
    }

    static String where() {
        return RendererSyncContext.current().map(context -> context.name() + " " + context.checkAccess()).orElse("none");
    }

    @RestController
    @OnContext
    static class OnFluxController implements IllegalStateAsConflict {

        private final OverlapTally tally;

        OnFluxController(OverlapTally tally) {
            this.tally = tally;
        }

        @PostMapping("/flux/increment")
        Mono<Integer> increment() {
            return Mono.just(tally.increment());
        }

        @GetMapping("/flux/tally")
        Mono<String> tally() {
            return Mono.just(tally.report());
        }

        @GetMapping("/flux/where")
        Mono<String> where() {
            return Mono.just(OnContextWebFluxHttpTest.where());
        }

        @GetMapping("/flux/letters")
        Flux<String> letters() {
            return Flux.just(RendererSyncContext.current().map(RendererSyncContext::name).orElse("none"), "a", "b");
        }

        @GetMapping("/flux/fail")
        Mono<String> fail() {
            throw new IllegalStateException("failed on its context " + RendererSyncContext.current().isPresent());
        }
    }

    @RestController
    static class PlainController {

        @GetMapping("/plain/context")
        Mono<String> context(RendererSyncContext context) {
            return Mono.just(context.name());
        }
    }

    @RestController
    static class NotReactiveController {

        @GetMapping("/hello")
        @OnContext
        String hello() {
            return "hello";
        }
    }
}
