package dev.synccontext.spring.mvc;

import dev.synccontext.testing.Browser;
import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.testing.OnRandomPort;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A controller's completed {@code CompletableFuture} is written without Servlet async processing, and
 * everything else a future can be still goes the asynchronous way, over real HTTP. An ASYNC-dispatch
 * filter counts the second dispatches.
 */
@OnRandomPort(classes = CompletedFutureHttpTest.App.class)
class CompletedFutureHttpTest {

    @Autowired
    AtomicInteger asyncDispatches;

    @BeforeEach
    void reset() {
        asyncDispatches.set(0);
    }

    @Test
    void anInlineInvokeAsyncOnAnIdleSessionIsWrittenWithoutAnAsyncDispatch(Browser browser) {
        HttpResponse<String> reply = answer(browser, "/inline", 200, "{\"count\":1}");
        assertThat(reply.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).contains("json"));
        assertThat(asyncDispatches).as("async dispatches").hasValue(0);
    }

    @Test
    void aCompletedResponseEntityKeepsItsStatusAndAVoidFutureAnswersEmpty(Browser browser) {
        answer(browser, "/entity", 201, "made");
        answer(browser, "/void", 200, "");
        assertThat(asyncDispatches).as("async dispatches").hasValue(0);
    }

    @Test
    void oneMethodWhoseValuesChangeClassIsWrittenByTheRightHandlerEachTime(Browser browser) {
        // The handler chosen for a method is kept per value class: each change of class must choose again.
        for (int round = 0; round < 3; round++) {
            answer(browser, "/mixed?kind=entity", 202, "accepted");
            HttpResponse<String> count = answer(browser, "/mixed?kind=count", 200, "{\"count\":7}");
            assertThat(count.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).contains("json"));
            answer(browser, "/mixed?kind=none", 200, "");
            HttpResponse<String> again = browser.get("/mixed?kind=count");
            assertThat(again.body()).isEqualTo("{\"count\":7}");
        }
        assertThat(asyncDispatches).as("async dispatches").hasValue(0);
    }

    @Test
    void aFutureCompletedLaterStillGoesTheAsynchronousWay(Browser browser) {
        answer(browser, "/later", 200, "later");
        assertThat(asyncDispatches).as("async dispatches").hasValue(1);
    }

    @Test
    void aFailedFutureReachesTheExceptionHandlerAsBefore(Browser browser) {
        answer(browser, "/failed", 409, "handled: no");
    }

    /** GETs {@code path} and asserts the answer's status and body; answers it for what else a test checks. */
    private static HttpResponse<String> answer(Browser browser, String path, int status, String body) {
        HttpResponse<String> reply = browser.get(path);
        assertThat(reply.statusCode()).as("status of %s", path).isEqualTo(status);
        assertThat(reply.body()).as("body of %s", path).isEqualTo(body);
        return reply;
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({ FutureController.class, AsyncDispatchCounter.class })
    static class App {
    }

    @RestController
    static class FutureController {

        private final RendererSyncContext context;
        private int count;

        FutureController(RendererSyncContext context) {
            this.context = context;
        }

        record Count(int count) {
        }

        @GetMapping("/inline")
        CompletableFuture<Count> inline() {
            return context.invokeAsync(() -> new Count(++count));
        }

        @GetMapping("/entity")
        CompletableFuture<ResponseEntity<String>> entity() {
            return context.invokeAsync(() -> ResponseEntity.status(HttpStatus.CREATED).body("made"));
        }

        @GetMapping("/void")
        CompletableFuture<Void> nothing() {
            return context.invokeAsync(() -> { });
        }

        @GetMapping("/mixed")
        CompletableFuture<Object> mixed(@RequestParam String kind) {
            return context.invokeAsync(() -> switch (kind) {
                case "entity" -> ResponseEntity.status(HttpStatus.ACCEPTED).body("accepted");
                case "count" -> new Count(7);
                default -> null;
            });
        }

        @GetMapping("/later")
        CompletableFuture<String> later() {
            return CompletableFuture.supplyAsync(() -> "later",
                    CompletableFuture.delayedExecutor(50, TimeUnit.MILLISECONDS, Executors.newSingleThreadExecutor()));
        }

        @GetMapping("/failed")
        CompletableFuture<String> failed() {
            return context.invokeAsync(() -> {
                throw new IllegalStateException("no");
            });
        }

        @ExceptionHandler(IllegalStateException.class)
        ResponseEntity<String> conflict(IllegalStateException e) {
            return ResponseEntity.status(HttpStatus.CONFLICT).body("handled: " + e.getMessage());
        }
    }
}
