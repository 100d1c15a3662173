package dev.synccontext.spring.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.testing.Browser;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.testing.OnRandomPort;

/** {@code synccontext.scope=request} and a read-only endpoint, over real HTTP. */
@OnRandomPort(classes = RequestScopeHttpTest.App.class, properties = {
        "synccontext.scope=request", "management.endpoints.web.exposure.include=synccontext",
        "management.endpoint.synccontext.access=read-only" })
class RequestScopeHttpTest {

    @Autowired
    RequestController controller;

    @Autowired
    SyncContextRegistry registry;

    @Test
    void eachRequestGetsItsOwnContextClosedWhenTheRequestEnds(Browser browser) {
        String first = browser.get("/context").body();
        String second = browser.get("/context").body();
        assertThat(first).startsWith("request-");
        assertThat(second).startsWith("request-").isNotEqualTo(first);
        RendererSyncContext firstContext = controller.seen.get(first);
        assertThat(firstContext).isNotNull();
        // The request scope is destroyed as the request completes, possibly just after the client has
        // its response: wait for that event, not for a fixed time.
        await().atMost(Duration.ofSeconds(10)).until(firstContext::isClosed);
        await().atMost(Duration.ofSeconds(10)).until(() -> registry.statistics("request").contexts() == 0);
        assertThat(registry.belongsTo(firstContext, "request")).isFalse();
    }

    @Test
    void readOnlyAccessAllowsGetAndRefusesPostWith405(Browser browser) {
        assertThat(browser.get("/actuator/synccontext").statusCode()).isEqualTo(200);
        HttpResponse<String> post = browser.postJson("/actuator/synccontext", "{\"scenarios\":\"InvokeAsyncReady\"}");
        assertThat(post.statusCode()).isEqualTo(405);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(RequestController.class)
    static class App {
    }

    @RestController
    static class RequestController {

        final Map<String, RendererSyncContext> seen = new ConcurrentHashMap<>();
        private final RendererSyncContext context;

        RequestController(RendererSyncContext context) {
            this.context = context;
        }

        @GetMapping("/context")
        String context() {
            RendererSyncContext target = context.invokeAsync(() -> RendererSyncContext.current().orElseThrow()).join();
            seen.put(target.name(), target);
            return target.name();
        }
    }
}
