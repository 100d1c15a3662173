package dev.synccontext.spring.propagation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import brave.handler.MutableSpan;
import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.mvc.ContextHold;
import dev.synccontext.testing.Browser;
import dev.synccontext.testing.OnRandomPort;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Tracer;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * A queued {@code @OnContext} MVC body, with a real tracer and Spring Security's context: it runs on the drain
 * thread with the request's trace in the MDC and in the tracer, and the caller's {@code Authentication}; and
 * the next callback on that thread sees none of them. {@link QueuedMvcBodyObservationHttpTest} runs the same
 * with {@code synccontext.observations.enabled}: the body then runs inside its own span, a child of the
 * request's.
 */
@OnRandomPort(classes = TracedApp.class, properties = "synccontext.executor=application-task-executor")
class QueuedMvcBodyPropagationHttpTest {

    static final Duration WAIT = Duration.ofSeconds(30);

    @LocalServerPort
    int port;

    @Autowired
    ContextHold hold;

    @Autowired
    Tracer tracer;

    @Autowired
    ObservationRegistry observations;

    @Autowired
    List<MutableSpan> finishedSpans;

    /** What a queued body saw, and the request's span ({@code traceId/spanId}) it was queued from. */
    record Queued(String[] seen, String requestTrace, String requestSpan, RendererSyncContext context) {
    }

    Queued queuedBody() {
        hold.reset();
        Browser alice = new Browser(port);
        assertThat(alice.send(alice.request("/traced/seen").header("X-User", "alice")).statusCode()).isEqualTo(200);
        alice.post("/traced/hold");
        await().atMost(WAIT).until(() -> hold.held.get() != null);
        RendererSyncContext held = hold.held.get();
        CompletableFuture<HttpResponse<String>> reply = alice.httpClient().sendAsync(
                alice.request("/traced/seen").header("X-User", "alice").GET().build(),
                HttpResponse.BodyHandlers.ofString());
        await().atMost(WAIT).until(() -> held.queueDepth() == 1);
        hold.release.countDown();
        HttpResponse<String> response = reply.orTimeout(60, TimeUnit.SECONDS).join();
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        String[] request = response.headers().firstValue("X-Trace").orElseThrow().split("/");
        return new Queued(response.body().split("\\|"), request[0], request[1], held);
    }

    /** What the next callback on the drain thread sees, queued from this thread (no trace, no user). */
    /** {@link #queuedBody()}, checked to have run queued on the drain thread with the request's trace id. */
    Queued queuedBodyOnTheRequestsTrace() {
        Queued queued = queuedBody();
        assertThat(queued.seen()[0]).as("the body ran on the drain thread, queued").startsWith("drain-");
        assertThat(queued.seen()[1]).as("traceId in the body's MDC").isEqualTo(queued.requestTrace());
        return queued;
    }

    String[] nextOnTheDrainThread(RendererSyncContext context) throws Exception {
        CompletableFuture<String> next = new CompletableFuture<>();
        context.post(() -> next.complete(TracedApp.seen(tracer, observations)));
        String[] after = next.get(WAIT.toSeconds(), TimeUnit.SECONDS).split("\\|");
        assertThat(after[0]).as("the same drain thread").startsWith("drain-");
        return after;
    }

    @Test
    void aQueuedBodyRunsWithTheRequestsTraceIdsAndUserAndLeavesNoneOnItsThread() throws Exception {
        Queued queued = queuedBodyOnTheRequestsTrace();
        String[] seen = queued.seen();
        assertThat(seen[2]).as("spanId in the body's MDC: the request's span").isEqualTo(queued.requestSpan());
        assertThat(seen[3] + "/" + seen[4]).as("the tracer's current span in the body")
                .isEqualTo(queued.requestTrace() + "/" + queued.requestSpan());
        assertThat(seen[6]).as("the Authentication in the body").isEqualTo("alice");
        assertNothingLeftOnTheDrainThread(queued.context());
    }

    /** The next callback on the drain thread, queued from a thread with no trace and no user, sees neither. */
    void assertNothingLeftOnTheDrainThread(RendererSyncContext context) throws Exception {
        String[] after = nextOnTheDrainThread(context);
        assertThat(String.join("|", after[1], after[2], after[3], after[4], after[5], after[6]))
                .as("MDC ids, tracer span, observation and user seen by the next callback on that thread")
                .isEqualTo("null|null|null|null|null|null");
    }
}
