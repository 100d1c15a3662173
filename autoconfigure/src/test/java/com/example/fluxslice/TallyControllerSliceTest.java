package com.example.fluxslice;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webflux.test.autoconfigure.WebFluxTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.ResponseCookie;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * A {@code @WebFluxTest} slice imports the starter's WebFlux parts (registry, scope, WebSession contexts,
 * {@code @OnContext}), so an {@code @OnContext} controller behaves as in the application. Strict scope: the
 * {@code @ContextScoped} tally resolves only inside a callback of the WebSession's context.
 */
@WebFluxTest(controllers = TallyController.class, properties = "synccontext.context-scope.strict=true")
@Import(Tally.class)
class TallyControllerSliceTest {

    @Autowired
    WebTestClient client;

    @Test
    void eachWebSessionCountsOnItsOwnContext() {
        EntityExchangeResult<String> first = client.post().uri("/tally/increment").exchange()
                .expectStatus().isOk().expectBody(String.class).isEqualTo("1").returnResult();
        ResponseCookie session = first.getResponseCookies().getFirst("SESSION");
        assertThat(session).as("the first request opened a WebSession").isNotNull();

        client.post().uri("/tally/increment").cookie("SESSION", session.getValue()).exchange()
                .expectStatus().isOk().expectBody(String.class).isEqualTo("2");
        client.post().uri("/tally/increment").exchange()
                .expectStatus().isOk().expectBody(String.class).isEqualTo("1");
    }
}
