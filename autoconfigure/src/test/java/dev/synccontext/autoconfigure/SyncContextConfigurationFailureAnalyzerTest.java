package dev.synccontext.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.synccontext.spring.SyncContextConfigurationException;
import dev.synccontext.spring.handler.OnContext;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** A failed startup check reads as Boot's own failure report: what is wrong, then what to do. */
@ExtendWith(OutputCaptureExtension.class)
class SyncContextConfigurationFailureAnalyzerTest {

    @Test
    void anOnContextHandlerThatWouldRunOffItsContextIsReportedWithDescriptionAndAction(CapturedOutput output) {
        SpringApplication application = new SpringApplication(OffContextApp.class);
        Throwable failure = catchThrowable(() -> application.run("--server.port=0", "--synccontext.mvc.on-context=false",
                "--spring.main.banner-mode=off"));
        assertThat(Stream.iterate(failure, Objects::nonNull, Throwable::getCause))
                .as("the startup failed on the check").hasAtLeastOneElementOfType(SyncContextConfigurationException.class);

        assertThat(output.getOut() + output.getErr())
                .as("Boot's failure report, with the check's description and action")
                .contains("APPLICATION FAILED TO START")
                .containsPattern("(?s)Description:\\s+@OnContext handler methods \\[.*OffContextController#hello.*\\]"
                        + " would run off their context")
                .containsPattern("(?s)Action:\\s+Return new OnContextHandlerAdapter\\(\\)");
    }

    /** An {@code @OnContext} controller with the starter's MVC part switched off: the check must refuse it. */
    @EnableAutoConfiguration
    @Import(OffContextController.class)
    static class OffContextApp {
    }

    @RestController
    @OnContext
    static class OffContextController {

        @GetMapping("/hello")
        String hello() {
            return "hello";
        }
    }
}
