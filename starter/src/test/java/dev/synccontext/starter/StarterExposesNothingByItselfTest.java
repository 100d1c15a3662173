package dev.synccontext.starter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.autoconfigure.endpoint.SyncContextEndpoint;
import dev.synccontext.testing.OnRandomPort;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;

/**
 * The starter never exposes its endpoint by itself. An app with only the starter and no
 * {@code management.endpoints.web.exposure.include} gets the context and registry, but
 * {@code /actuator/synccontext} answers 404 to GET and POST (no benchmark can be started over HTTP)
 * and the actuator index does not list it. (The auto-configuration's runner test proves the bean is
 * absent; this proves it over HTTP, as a user would find it.)
 */
@OnRandomPort(classes = StarterExposesNothingByItselfTest.App.class)
class StarterExposesNothingByItselfTest {

    @LocalServerPort
    int port;

    @Autowired
    ApplicationContext context;

    @Test
    void withoutAnExposurePropertyTheEndpointIs404() throws Exception {
        assertThat(context.getBeanNamesForType(SyncContextRegistry.class)).hasSize(1);
        assertThat(context.getBeanNamesForType(SyncContextEndpoint.class)).isEmpty();
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> get = send(http, HttpRequest.newBuilder(uri("/actuator/synccontext")).GET());
        assertThat(get.statusCode()).as("GET /actuator/synccontext: %s", get.body()).isEqualTo(404);
        HttpResponse<String> post = send(http, HttpRequest.newBuilder(uri("/actuator/synccontext"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"scenarios\":\"InvokeAsyncReady\",\"iterations\":1}")));
        assertThat(post.statusCode()).as("POST /actuator/synccontext: %s", post.body()).isEqualTo(404);
        HttpResponse<String> index = send(http, HttpRequest.newBuilder(uri("/actuator")).GET());
        assertThat(index.statusCode()).as("the actuator itself is on").isEqualTo(200);
        assertThat(index.body()).contains("health").doesNotContain("synccontext");
    }

    private URI uri(String path) {
        return URI.create("http://localhost:" + port + path);
    }

    private static HttpResponse<String> send(HttpClient http, HttpRequest.Builder request) throws Exception {
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @SpringBootApplication
    static class App {
    }
}
