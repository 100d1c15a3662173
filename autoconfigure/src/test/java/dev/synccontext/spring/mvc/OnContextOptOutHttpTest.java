package dev.synccontext.spring.mvc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.handler.OnContext;
import dev.synccontext.testing.Browser;
import dev.synccontext.testing.OnRandomPort;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code @OnContext(false)} on one method of an {@code @OnContext} MVC controller, over real HTTP on Tomcat: that
 * method runs as if the class carried no annotation (no context around its body), while the class's other methods
 * still run on the session's context.
 */
@OnRandomPort(classes = OnContextOptOutHttpTest.App.class)
class OnContextOptOutHttpTest {

    @Test
    void aMethodMarkedOnContextFalseRunsOffTheContextItsSiblingsRunOn(Browser alice) {
        String on = alice.get("/opt/on").body();
        assertThat(on).as("the class's @OnContext").startsWith("on session-");
        assertThat(alice.get("/opt/off").body()).as("@OnContext(false) on the method").isEqualTo("off");
        assertThat(alice.get("/opt/on").body()).isEqualTo(on);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(OptOutController.class)
    static class App {
    }

    @RestController
    @OnContext
    static class OptOutController {

        @GetMapping("/opt/on")
        String on() {
            return "on " + RendererSyncContext.current().map(RendererSyncContext::name).orElse("none");
        }

        @GetMapping("/opt/off")
        @OnContext(false)
        String off() {
            return RendererSyncContext.current().map(c -> "on " + c.name()).orElse("off");
        }
    }
}
