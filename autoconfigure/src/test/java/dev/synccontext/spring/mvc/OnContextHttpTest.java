package dev.synccontext.spring.mvc;

import static dev.synccontext.spring.handler.ConcurrentPosts.join;
import static dev.synccontext.spring.handler.ConcurrentPosts.post;
import static dev.synccontext.spring.handler.ConcurrentPosts.send;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.handler.ConcurrentPosts;
import dev.synccontext.spring.session.TwoSessions;
import dev.synccontext.testing.Browser;
import dev.synccontext.testing.OnRandomPort;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * {@code @OnContext} Spring MVC handlers over real HTTP on Tomcat: the body runs on the session's context,
 * one at a time per session, inline without an async dispatch when the context is idle, queued and answered
 * through Servlet async when it is busy, and every kind of answer is the one the method gives without the
 * annotation. An ASYNC-dispatch filter counts second dispatches.
 */
@OnRandomPort(classes = OnContextApp.class, properties = "spring.mvc.problemdetails.enabled=true")
class OnContextHttpTest {

    @LocalServerPort
    int port;

    @Autowired
    AtomicInteger asyncDispatches;

    @Autowired
    OnContextApp.Gate gate;

    @BeforeEach
    void reset() {
        asyncDispatches.set(0);
        gate.reset();
    }

    @Test
    void withoutTheAnnotationConcurrentRequestsOfOneSessionLoseUpdates(Browser alice) {
        // The premise: a plain field touched by overlapping requests of one session loses updates.
        alice.get("/plain/context");
        List<HttpResponse<String>> replies = ConcurrentPosts.postAll(alice, 400, "/plain/increment");
        assertThat(replies).allSatisfy(reply -> assertThat(reply.statusCode()).isEqualTo(200));
        assertThat(Integer.parseInt(alice.get("/plain/tally").body())).as("updates kept out of 400").isLessThan(400);
    }

    @Test
    void fourHundredConcurrentRequestsOfOneSessionRunOneAtATimeAndLoseNothing(Browser bob) {
        bob.get("/plain/context");
        ConcurrentPosts.assertIncrementsRunOneAtATime(bob, 400, "/on");
    }

    @Test
    void eightSessionsOfTwoHundredRequestsEachKeepTheirOwnExactCount() {
        List<Browser> sessions = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            Browser session = new Browser(port);
            session.get("/plain/context");
            sessions.add(session);
        }
        // 32 requests of each session in flight at once (256 in all): enough to queue on every context, without
        // more connections than a loaded test machine accepts in time.
        Map<Browser, Semaphore> inFlight = new LinkedHashMap<>();
        sessions.forEach(session -> inFlight.put(session, new Semaphore(32)));
        List<CompletableFuture<HttpResponse<String>>> all = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            for (Browser session : sessions) {
                Semaphore permits = inFlight.get(session);
                permits.acquireUninterruptibly();
                all.add(send(session, post(session, "/on/increment")).whenComplete((reply, failure) -> permits.release()));
            }
        }
        assertThat(join(all)).allSatisfy(reply -> assertThat(reply.statusCode()).as(reply.body()).isEqualTo(200));
        for (Browser session : sessions) {
            assertThat(session.get("/on/tally").body()).isEqualTo("200 max-inside 1");
        }
    }

    @Test
    void theBodyRunsOnTheSessionsContextInlineOnTheRequestThreadWithoutAnAsyncDispatch(Browser carol, Browser dave) {
        TwoSessions contexts = TwoSessions.ask(carol, dave, "/plain/context");
        assertThat(carol.get("/on/where").body()).isEqualTo(contexts.first() + " true");
        assertThat(dave.get("/on/where").body()).isEqualTo(contexts.second() + " true");
        assertThat(carol.get("/on/thread").body()).as("inline: the request thread").contains("exec-");
        assertThat(asyncDispatches).as("async dispatches").hasValue(0);
    }

    @Test
    void aRequestWithoutASessionGetsOneAndRunsOnItsNewContext(Browser erin) {
        String where = erin.get("/on/where").body();
        assertThat(where).startsWith("session-").endsWith(" true");
        assertThat(erin.cookie("JSESSIONID")).isNotNull();
        assertThat(erin.get("/plain/context").body() + " true").isEqualTo(where);
    }

    @Test
    void everyKindOfReturnValueIsWrittenAsWithoutTheAnnotationWhenIdle(Browser frank) {
        String context = frank.get("/plain/context").body();
        Map<String, String> answers = idleAnswers(frank, context);
        assertThat(answers).containsEntry("entity", "201 made " + context + " true")
                .containsEntry("void", "200 ")
                .containsEntry("accepted", "202 accepted")
                .containsEntry("list", "200 [{\"name\":\"a\"},{\"name\":\"b\"}]")
                .containsEntry("future", "200 future " + context + " true")
                .containsEntry("page", "200 page on " + context)
                .containsEntry("sse", "200 data:" + context + " true");
        assertThat(asyncDispatches).as("async dispatches: only the SSE emitter's own completion").hasValue(1);
    }

    @Test
    void anExceptionAndAValidationFailureAnswerExactlyAsWithoutTheAnnotation(Browser grace) {
        grace.get("/plain/context");
        assertThat(answer(grace.get("/on/fail"))).isEqualTo(answer(grace.get("/plain/fail"))).isEqualTo("409 handled: no true");
        String problem = answer(grace.get("/on/problem"));
        assertThat(problem).startsWith("418 ").contains("short and stout")
                .isEqualTo(answer(grace.get("/plain/problem")).replace("/plain/", "/on/"));
        String invalid = answer(grace.postJson("/on/items", "{\"name\":\"\"}"));
        assertThat(invalid).startsWith("400 ")
                .isEqualTo(answer(grace.postJson("/plain/items", "{\"name\":\"\"}")).replace("/plain/", "/on/"));
        assertThat(grace.get("/on/tally").body()).as("a body whose argument failed validation never ran").startsWith("0 ");
        assertThat(answer(grace.postJson("/on/items", "{\"name\":\"x\"}"))).isEqualTo("200 added x");
        assertThat(asyncDispatches).as("async dispatches").hasValue(0);
    }

    @Test
    void whenTheContextIsBusyEveryAnswerComesThroughAsyncAndEqualsTheInlineOne(Browser heidi) {
        String context = heidi.get("/plain/context").body();
        Map<String, String> inline = idleAnswers(heidi, context);
        inline.put("fail", answer(heidi.get("/on/fail")));
        inline.put("problem", answer(heidi.get("/on/problem")));
        asyncDispatches.set(0);

        heidi.post("/plain/hold");
        awaitHeld();
        Map<String, CompletableFuture<HttpResponse<String>>> queued = new LinkedHashMap<>();
        for (String name : List.of("where", "entity", "accepted", "list", "future", "page", "sse", "fail", "problem")) {
            queued.put(name, send(heidi, heidi.request("/on/" + name).GET()));
        }
        queued.put("void", send(heidi, post(heidi, "/on/void")));
        await().atMost(Duration.ofSeconds(30)).until(() -> gate.held.get().queueDepth() == queued.size());
        assertThat(queued.values()).as("nothing is answered while the context is busy").noneMatch(CompletableFuture::isDone);
        gate.release.countDown();

        Map<String, String> answers = new LinkedHashMap<>();
        queued.forEach((name, reply) -> answers.put(name, answer(reply.join())));
        inline.put("where", "200 " + context + " true");
        assertThat(answers).isEqualTo(inline);
        assertThat(asyncDispatches.get()).as("one async dispatch per queued request, one more for SSE's completion")
                .isEqualTo(queued.size() + 1);
    }

    @Test
    void aQueuedBodyThatNeverStartsBecauseTheContextWasForceClosedAnswers503(Browser ivan) {
        ivan.get("/plain/context");
        ivan.post("/plain/hold");
        awaitHeld();
        CompletableFuture<HttpResponse<String>> queued = send(ivan, post(ivan, "/on/increment"));
        RendererSyncContext held = gate.held.get();
        await().atMost(Duration.ofSeconds(30)).until(() -> held.queueDepth() == 1);
        held.closeNow(); // as at shutdown after the grace period: the queued body is cancelled
        HttpResponse<String> reply = queued.orTimeout(30, TimeUnit.SECONDS).join();
        gate.release.countDown();
        assertThat(reply.statusCode()).as(reply.body()).isEqualTo(503);
        assertThat(reply.body()).contains("did not run").contains(held.name());
        assertThat(ivan.get("/on/tally").body()).as("the session's next request runs on a new context").startsWith("0 ");
    }

    /** The answers of the annotated endpoints when the session's context is idle, as "status body". */
    private static Map<String, String> idleAnswers(Browser browser, String context) {
        Map<String, String> answers = new LinkedHashMap<>();
        HttpResponse<String> entity = browser.get("/on/entity");
        assertThat(entity.headers().firstValue("X-Where")).hasValue(context + " true");
        answers.put("entity", answer(entity));
        answers.put("accepted", answer(browser.get("/on/accepted")));
        answers.put("list", answer(browser.get("/on/list")));
        answers.put("future", answer(browser.get("/on/future")));
        answers.put("page", answer(browser.get("/on/page")));
        answers.put("sse", answer(browser.get("/on/sse")).strip());
        answers.put("void", answer(browser.post("/on/void")));
        return answers;
    }

    private void awaitHeld() {
        await().atMost(Duration.ofSeconds(30)).until(() -> gate.held.get() != null);
    }

    private static String answer(HttpResponse<String> reply) {
        String body = reply.body();
        if (reply.headers().firstValue("X-Where").isPresent()) {
            body = body + " " + reply.headers().firstValue("X-Where").get();
        }
        return reply.statusCode() + " " + (reply.uri().getPath().endsWith("/sse") ? body.strip() : body);
    }
}
