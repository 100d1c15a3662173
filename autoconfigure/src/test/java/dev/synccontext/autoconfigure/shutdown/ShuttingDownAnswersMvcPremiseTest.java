package dev.synccontext.autoconfigure.shutdown;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.testing.Browser;
import dev.synccontext.testing.OnRandomPort;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;

/**
 * The premise of {@link ShuttingDownAnswersMvcTest}: the same app without the starter's MVC part, which
 * holds the resolver; a request refused because the application is shutting down is then an unhandled
 * exception, a 500 a balancer does not retry elsewhere.
 */
@OnRandomPort(classes = {ShuttingDownAnswersContract.App.class, ShuttingDownAnswersMvcTest.CountController.class},
        properties = "spring.autoconfigure.exclude=dev.synccontext.autoconfigure.mvc.SyncContextMvcAutoConfiguration")
@DirtiesContext // the registry is drained
class ShuttingDownAnswersMvcPremiseTest {

    @Autowired
    SyncContextRegistry registry;

    @Test
    void withoutTheResolverTheRefusalIsA500(Browser before, Browser after) throws Exception {
        assertThat(before.get("/count").body()).isEqualTo("1");
        ShuttingDownAnswersContract.drain(registry);
        assertThat(after.get("/count").statusCode()).isEqualTo(500);
    }
}
