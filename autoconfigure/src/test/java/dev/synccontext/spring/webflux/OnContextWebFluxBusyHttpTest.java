package dev.synccontext.spring.webflux;

import static dev.synccontext.spring.handler.ConcurrentPosts.send;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.handler.ConcurrentPosts;
import dev.synccontext.spring.handler.OverlapTally;
import dev.synccontext.testing.Browser;
import dev.synccontext.testing.OnRandomPort;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * {@code @OnContext} WebFlux handlers when the WebSession's context is busy or refuses, over real HTTP on
 * Netty: a body behind a running callback is queued and answered when its turn comes (not before); a body the
 * context refuses, because its queue is full ({@code synccontext.max-queue-depth}) or because it was
 * force-closed while the body waited, answers 503 with a message naming the context and the cause, and the
 * queued bodies still run.
 */
@OnRandomPort(classes = OnContextWebFluxBusyHttpTest.App.class,
        properties = { "spring.main.web-application-type=reactive", "spring.webflux.problemdetails.enabled=true",
                "synccontext.max-queue-depth=2" })
class OnContextWebFluxBusyHttpTest {

    @Autowired
    Gate gate;

    @BeforeEach
    void reset() {
        gate.reset();
    }

    @AfterEach
    void release() {
        gate.release.countDown();
    }

    @Test
    void aBodyBehindABusyContextIsQueuedAndAnsweredWhenItsTurnComes(Browser alice) {
        String context = alice.get("/plain/context").body();
        RendererSyncContext held = hold(alice);
        CompletableFuture<HttpResponse<String>> queued = sendQueued(alice, alice.request("/flux/where").GET(), held, 1);
        assertThat(queued).as("answered while the context was still busy").isNotDone();
        gate.release.countDown();
        HttpResponse<String> reply = queued.orTimeout(30, TimeUnit.SECONDS).join();
        assertThat(reply.statusCode()).as(reply.body()).isEqualTo(200);
        assertThat(reply.body()).isEqualTo(context + " true");
    }

    @Test
    void aBodyTheFullQueueRefusesAnswers503NamingTheContextAndTheLimitAndTheQueuedOnesStillRun(Browser bob) {
        bob.get("/plain/context");
        RendererSyncContext held = hold(bob);
        CompletableFuture<HttpResponse<String>> first = sendQueued(bob, increment(bob), held, 1);
        CompletableFuture<HttpResponse<String>> second = sendQueued(bob, increment(bob), held, 2);

        HttpResponse<String> refused = send(bob, increment(bob)).orTimeout(30, TimeUnit.SECONDS).join();
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(503);
        assertThat(refused.body()).contains("OnFluxController#increment did not run").contains(held.name())
                .contains("maxQueueDepth = 2");
        assertThat(first).as("the queued bodies wait for their turn").isNotDone();

        gate.release.countDown();
        assertThat(first.orTimeout(30, TimeUnit.SECONDS).join().body()).isEqualTo("1");
        assertThat(second.orTimeout(30, TimeUnit.SECONDS).join().body()).isEqualTo("2");
        assertThat(bob.get("/flux/tally").body()).as("the refused body never ran").isEqualTo("2 max-inside 1");
    }

    @Test
    void aQueuedBodyOfAForceClosedContextAnswers503AndTheSessionGoesOnOnANewContext(Browser carol) {
        carol.get("/plain/context");
        RendererSyncContext held = hold(carol);
        CompletableFuture<HttpResponse<String>> queued = sendQueued(carol, increment(carol), held, 1);
        held.closeNow(); // as at shutdown after the grace period, or a session released by force

        HttpResponse<String> reply = queued.orTimeout(30, TimeUnit.SECONDS).join();
        assertThat(reply.statusCode()).as(reply.body()).isEqualTo(503);
        assertThat(reply.body()).contains("OnFluxController#increment did not run").contains(held.name());
        gate.release.countDown();
        String next = carol.get("/plain/context").body();
        assertThat(next).as("the session's next context").isNotEqualTo(held.name());
        assertThat(carol.get("/flux/tally").body()).as("the cancelled body never ran").isEqualTo("0 max-inside 0");
    }

    private RendererSyncContext hold(Browser browser) {
        assertThat(browser.post("/plain/hold").body()).isEqualTo("holding");
        await().atMost(Duration.ofSeconds(30)).until(() -> gate.held.get() != null);
        return gate.held.get();
    }

    /** Sends {@code request} and waits until {@code held} has queued it, {@code depth} deep. */
    private static CompletableFuture<HttpResponse<String>> sendQueued(Browser browser, HttpRequest.Builder request,
            RendererSyncContext held, int depth) {
        CompletableFuture<HttpResponse<String>> reply = send(browser, request);
        await().atMost(Duration.ofSeconds(30)).until(() -> held.queueDepth() == depth);
        return reply;
    }

    private static HttpRequest.Builder increment(Browser browser) {
        return ConcurrentPosts.post(browser, "/flux/increment");
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({ OverlapTally.class, OnContextWebFluxHttpTest.OnFluxController.class,
            OnContextWebFluxHttpTest.PlainController.class, Gate.class, HoldController.class })
    static class App {
    }

    /** Holds a WebSession's context busy from a pool thread until released. */
    @Component
    static class Gate {

        final AtomicReference<RendererSyncContext> held = new AtomicReference<>();
        volatile CountDownLatch release = new CountDownLatch(1);

        void reset() {
            release = new CountDownLatch(1);
            held.set(null);
        }

        void hold(RendererSyncContext context) {
            CountDownLatch releaseNow = release;
            context.post(() -> {
                held.set(RendererSyncContext.current().orElseThrow());
                try {
                    releaseNow.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
    }

    @RestController
    static class HoldController {

        private final Gate gate;

        HoldController(Gate gate) {
            this.gate = gate;
        }

        @PostMapping("/plain/hold")
        Mono<String> hold(RendererSyncContext context) {
            gate.hold(context);
            return Mono.just("holding");
        }
    }
}
