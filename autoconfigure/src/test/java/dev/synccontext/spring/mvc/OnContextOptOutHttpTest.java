package dev.synccontext.spring.mvc;

import dev.synccontext.spring.handler.OnContext;
import dev.synccontext.spring.handler.OptOutAnswers;
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
        OptOutAnswers.assertOnlyTheOptedOutMethodRunsOff(alice, "/opt");
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
            return OptOutAnswers.where();
        }

        @GetMapping("/opt/off")
        @OnContext(false)
        String off() {
            return OptOutAnswers.where();
        }
    }
}
