package dev.synccontext.autoconfigure.shutdown;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.testing.OnRandomPort;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@link ShuttingDownAnswersContract} on Spring MVC over real Tomcat (any other failure gets the container's
 * 500). The premise, {@link ShuttingDownAnswersMvcPremiseTest}, is the same app without the resolver: 500.
 */
@OnRandomPort(classes = {ShuttingDownAnswersContract.App.class, ShuttingDownAnswersMvcTest.CountController.class})
class ShuttingDownAnswersMvcTest extends ShuttingDownAnswersContract {

    @RestController
    static class CountController {

        private final RendererSyncContext context;
        private int count;

        CountController(RendererSyncContext context) {
            this.context = context;
        }

        @GetMapping("/count")
        String count() {
            return String.valueOf(context.invokeAsync(() -> ++count).join());
        }

        @GetMapping("/broken")
        String broken() {
            throw new IllegalStateException("broken on purpose");
        }
    }
}
