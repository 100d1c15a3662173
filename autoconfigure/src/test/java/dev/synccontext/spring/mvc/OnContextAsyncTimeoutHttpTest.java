package dev.synccontext.spring.mvc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.testing.Browser;
import dev.synccontext.testing.OnRandomPort;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A queued {@code @OnContext} body is answered within the async request timeout: while a callback holds the
 * session's context past it, the request gets Spring's timeout answer (503), and the body, which had not
 * started, never runs.
 */
@OnRandomPort(classes = OnContextApp.class, properties = "spring.mvc.async.request-timeout=500ms")
class OnContextAsyncTimeoutHttpTest {

    @Autowired
    OnContextApp.Gate gate;

    @Test
    void aBodyQueuedBehindACallbackThatOutlastsTheTimeoutAnswers503AndNeverRuns(Browser judy) {
        RendererSyncContext held = gate.holdSessionOf(judy);
        CompletableFuture<HttpResponse<String>> queued = judy.httpClient().sendAsync(
                judy.request("/on/increment").POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> reply;
        try {
            reply = queued.orTimeout(30, TimeUnit.SECONDS).join(); // the context is held until released below
        } finally {
            gate.release.countDown();
        }
        assertThat(reply.statusCode()).as(reply.body()).isEqualTo(503);
        assertThat(held.isClosed()).as("the session's context is still open").isFalse();
        // The next body queues behind nothing but the released callback; the timed-out one was dropped before it.
        assertThat(judy.get("/on/tally").body()).as("the timed-out body never ran").startsWith("0 ");
        assertThat(held.queueDepth()).isZero();
    }
}
