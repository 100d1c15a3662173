package dev.synccontext.autoconfigure.shutdown;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.testing.OnRandomPort;
import java.net.http.HttpResponse;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * {@link ShuttingDownAnswersContract} on WebFlux over real Netty, where the session is the WebSession: the 503
 * also carries the refusal's reason as text; any other failure gets Boot's 500.
 */
@OnRandomPort(classes = {ShuttingDownAnswersContract.App.class, ShuttingDownAnswersWebFluxTest.CountController.class},
        properties = "spring.main.web-application-type=reactive")
class ShuttingDownAnswersWebFluxTest extends ShuttingDownAnswersContract {

    /** WebFlux's 503 carries the refusal's reason as text. */
    @Override
    void assertReason(HttpResponse<String> reply) {
        assertThat(reply.body()).contains("shutting down");
    }

    @RestController
    static class CountController {

        private int count;

        @GetMapping("/count")
        Mono<String> count(RendererSyncContext context) {
            return Mono.fromFuture(() -> context.invokeAsync(() -> String.valueOf(++count)));
        }

        @GetMapping("/broken")
        Mono<String> broken() {
            return Mono.error(new IllegalStateException("broken on purpose"));
        }
    }
}
