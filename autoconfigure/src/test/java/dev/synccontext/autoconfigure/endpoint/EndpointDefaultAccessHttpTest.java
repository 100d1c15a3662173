package dev.synccontext.autoconfigure.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.testing.Browser;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.testing.OnRandomPort;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;

/**
 * An application that exposes every endpoint ({@code management.endpoints.web.exposure.include=*}, as
 * many do for monitoring) and says nothing else about this one: GET answers, the CPU-heavy POST does not
 * exist until {@code management.endpoint.synccontext.access=unrestricted}.
 */
@OnRandomPort(classes = EndpointDefaultAccessHttpTest.App.class,
        properties = "management.endpoints.web.exposure.include=*")
class EndpointDefaultAccessHttpTest {

    @Test
    void exposingEveryEndpointServesGetButNoBenchmarkPost(Browser browser) {
        HttpResponse<String> get = browser.get("/actuator/synccontext");
        assertThat(get.statusCode()).as(get.body()).isEqualTo(200);
        assertThat(get.body()).contains("\"scenarioRunInProgress\":false");
        HttpResponse<String> post = browser.postJson("/actuator/synccontext",
                "{\"scenarios\":\"InvokeAsyncReady\",\"iterations\":1,\"warmups\":0}");
        assertThat(post.statusCode()).as("POST must be refused by default: %s", post.body()).isIn(404, 405);
        assertThat(post.body()).doesNotContain("\"rows\"");
    }

    @Test
    void eachScopeHasItsOwnPathAndAnAnonymousCallerGetsNoDetails(Browser browser) {
        registry.forKey("http-selector");
        HttpResponse<String> overview = browser.get("/actuator/synccontext");
        assertThat(overview.body()).as("overview for an anonymous caller").contains("\"detailsShown\":false")
                .doesNotContain("\"queuedCallbacks\"");
        HttpResponse<String> keyed = browser.get("/actuator/synccontext/keyed");
        assertThat(keyed.statusCode()).as(keyed.body()).isEqualTo(200);
        assertThat(keyed.body()).contains("\"scope\":\"keyed\"", "\"detailsShown\":false");
        HttpResponse<String> unknown = browser.get("/actuator/synccontext/no-such-scope");
        assertThat(unknown.statusCode()).as("a scope that does not exist: %s", unknown.body()).isEqualTo(404);
    }

    @Autowired
    SyncContextRegistry registry;

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
    }
}
