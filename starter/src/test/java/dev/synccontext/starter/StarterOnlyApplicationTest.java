package dev.synccontext.starter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.CallbackDecorator;
import dev.synccontext.RendererSyncContext;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.testing.Browser;
import dev.synccontext.testing.OnRandomPort;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A new Spring Boot 4 web app whose only synccontext dependency is this starter,
 * configured with nothing but the actuator exposure, gets the scoped context, the registry, the metrics
 * and the endpoint.
 */
@OnRandomPort(classes = StarterOnlyApplicationTest.App.class,
        properties = "management.endpoints.web.exposure.include=synccontext,metrics")
class StarterOnlyApplicationTest {

    @Autowired
    ApplicationContext context;

    @Test
    void theStarterAloneGivesTheScopedContextRegistryMetricsAndEndpoint(Browser http) throws Exception {
        assertThat(context.getBeanNamesForType(SyncContextRegistry.class)).hasSize(1);
        assertThat(context.getBeanNamesForType(CallbackDecorator.class)).as("context propagation").hasSize(1);
        String first = http.get("/hello").body();
        assertThat(first).startsWith("session-");
        assertThat(http.get("/hello").body()).isEqualTo(first);
        HttpResponse<String> endpoint = http.get("/actuator/synccontext");
        assertThat(endpoint.statusCode()).isEqualTo(200);
        assertThat(endpoint.body()).contains("\"contexts\":1").contains("InvokeAsyncReady");
        HttpResponse<String> metric = http.get("/actuator/metrics/synccontext.tasks");
        assertThat(metric.statusCode()).isEqualTo(200);
        assertThat(metric.body()).contains("\"path\"").contains("\"outcome\"").contains("\"scope\"");
    }

    @SpringBootApplication
    @Import(Hello.class) // scanning skips classes nested in tests
    static class App {
    }

    @RestController
    static class Hello {
        private final RendererSyncContext context;

        Hello(RendererSyncContext context) {
            this.context = context;
        }

        @GetMapping("/hello")
        String hello() {
            return context.invokeAsync(context::name).join();
        }
    }
}
