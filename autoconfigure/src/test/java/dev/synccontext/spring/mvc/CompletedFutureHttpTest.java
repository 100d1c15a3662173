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
        HttpResponse<String> reply = browser.get("/inline");
        assertThat(reply.statusCode()).isEqualTo(200);
        assertThat(reply.body()).isEqualTo("{\"count\":1}");
        assertThat(reply.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).contains("json"));
        assertThat(asyncDispatches).as("async dispatches").hasValue(0);
    }

    @Test
    void aCompletedResponseEntityKeepsItsStatusAndAVoidFutureAnswersEmpty(Browser browser) {
        HttpResponse<String> created = browser.get("/entity");
        assertThat(created.statusCode()).isEqualTo(201);
        assertThat(created.body()).isEqualTo("made");
        HttpResponse<String> nothing = browser.get("/void");
        assertThat(nothing.statusCode()).isEqualTo(200);
        assertThat(nothing.body()).isEmpty();
        assertThat(asyncDispatches).as("async dispatches").hasValue(0);
    }

    @Test
    void oneMethodWhoseValuesChangeClassIsWrittenByTheRightHandlerEachTime(Browser browser) {
        // The handler chosen for a method is kept per value class: each change of class must choose again.
        for (int round = 0; round < 3; round++) {
            HttpResponse<String> entity = browser.get("/mixed?kind=entity");
            assertThat(entity.statusCode()).isEqualTo(202);
            assertThat(entity.body()).isEqualTo("accepted");
            HttpResponse<String> count = browser.get("/mixed?kind=count");
            assertThat(count.statusCode()).isEqualTo(200);
            assertThat(count.body()).isEqualTo("{\"count\":7}");
            assertThat(count.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).contains("json"));
            HttpResponse<String> nothing = browser.get("/mixed?kind=none");
            assertThat(nothing.statusCode()).isEqualTo(200);
            assertThat(nothing.body()).isEmpty();
            HttpResponse<String> again = browser.get("/mixed?kind=count");
            assertThat(again.body()).isEqualTo("{\"count\":7}");
        }
        assertThat(asyncDispatches).as("async dispatches").hasValue(0);
    }

    @Test
    void aFutureCompletedLaterStillGoesTheAsynchronousWay(Browser browser) {
        HttpResponse<String> reply = browser.get("/later");
        assertThat(reply.statusCode()).isEqualTo(200);
        assertThat(reply.body()).isEqualTo("later");
        assertThat(asyncDispatches).as("async dispatches").hasValue(1);
    }

    @Test
    void aFailedFutureReachesTheExceptionHandlerAsBefore(Browser browser) {
        HttpResponse<String> reply = browser.get("/failed");
        assertThat(reply.statusCode()).isEqualTo(409);
        assertThat(reply.body()).isEqualTo("handled: no");
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
