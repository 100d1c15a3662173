package dev.synccontext.spring.webflux;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.spring.handler.OnContext;
import dev.synccontext.spring.handler.OptOutAnswers;
import dev.synccontext.testing.Browser;
import dev.synccontext.testing.OnRandomPort;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@code @OnContext(false)} on one method of an {@code @OnContext} WebFlux controller, over real HTTP on Netty:
 * that method runs as if the class carried no annotation (a stream stays in the class, off the context), while the
 * class's other methods still run on the WebSession's context.
 */
@OnRandomPort(classes = OnContextOptOutWebFluxHttpTest.App.class,
        properties = "spring.main.web-application-type=reactive")
class OnContextOptOutWebFluxHttpTest {

    @Test
    void aMethodMarkedOnContextFalseRunsOffTheContextItsSiblingsRunOn(Browser alice) {
        OptOutAnswers.assertOnlyTheOptedOutMethodRunsOff(alice, "/flux-opt");
        assertThat(alice.get("/flux-opt/stream").body()).as("an opted-out stream").isEqualTo("off off off");
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(FluxOptOutController.class)
    static class App {
    }

    @RestController
    @OnContext
    static class FluxOptOutController {

        @GetMapping("/flux-opt/on")
        Mono<String> on() {
            return Mono.just(OptOutAnswers.where());
        }

        @GetMapping("/flux-opt/off")
        @OnContext(false)
        Mono<String> off() {
            return Mono.just(OptOutAnswers.where());
        }

        @GetMapping(path = "/flux-opt/stream", produces = MediaType.TEXT_PLAIN_VALUE)
        @OnContext(false)
        Flux<String> stream() {
            String where = OptOutAnswers.where();
            return Flux.just(where, " " + where, " " + where);
        }
    }
}
