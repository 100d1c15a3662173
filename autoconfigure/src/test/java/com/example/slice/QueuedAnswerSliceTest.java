package com.example.slice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.session.SessionContexts;
import jakarta.servlet.DispatcherType;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.mock.web.MockHttpSession;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MvcTestResult;

/**
 * Under MockMvc an {@code @OnContext} body queued behind the session's other work is answered asynchronously:
 * {@code exchange()} waits for it and dispatches it, so the test reads it as it reads an inline answer, while a
 * bare {@code perform()} sees only the started async request.
 */
@WebMvcTest(CounterController.class)
@Import(Counter.class)
class QueuedAnswerSliceTest {

    /** The session attribute that holds the session's handle (SessionHandle's, package-private there). */
    private static final String HANDLE = "dev.synccontext.session";

    @Autowired
    MockMvcTester mvc;

    @Autowired
    SessionContexts contexts;

    @Test
    void anAnswerQueuedBehindTheSessionsWorkIsReadThroughExchange() throws Exception {
        MockHttpSession session = new MockHttpSession();
        CountDownLatch release = new CountDownLatch(1);
        RendererSyncContext context = heldContext(session, release);
        CompletableFuture<MvcTestResult> queued = CompletableFuture.supplyAsync(
                () -> mvc.post().uri("/counter/increment").session(session).exchange());
        await().atMost(10, TimeUnit.SECONDS).until(() -> context.queueDepth() == 1);
        assertThat(queued).as("the body waits behind the held callback").isNotDone();

        release.countDown();
        MvcTestResult answer = queued.get(10, TimeUnit.SECONDS);
        assertThat(answer.getRequest().getDispatcherType()).as("answered by an async dispatch").isEqualTo(DispatcherType.ASYNC);
        assertThat(answer).hasStatusOk().hasBodyTextEqualTo("2");
    }

    @Test
    void aBarePerformOfAQueuedBodySeesOnlyTheStartedAsyncRequest() throws Exception {
        MockHttpSession session = new MockHttpSession();
        CountDownLatch release = new CountDownLatch(1);
        heldContext(session, release);
        MvcTestResult started = mvc.perform(org.springframework.test.web.servlet.request.MockMvcRequestBuilders
                .post("/counter/increment").session(session));
        release.countDown();
        assertThat(started.getMvcResult().getRequest().isAsyncStarted()).as("async started").isTrue();
        assertThat(started.getResponse().getContentAsString()).as("no body before the async dispatch").isEmpty();
    }

    /**
     * Opens the session (its first increment answers 1) and answers its context, busy until {@code release} counts
     * down.
     */
    private RendererSyncContext heldContext(MockHttpSession session, CountDownLatch release) {
        assertThat(mvc.post().uri("/counter/increment").session(session).exchange()).hasBodyTextEqualTo("1");
        RendererSyncContext context = contexts.find(session.getAttribute(HANDLE)).orElseThrow();
        context.post(() -> hold(release));
        return context;
    }

    private static void hold(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
