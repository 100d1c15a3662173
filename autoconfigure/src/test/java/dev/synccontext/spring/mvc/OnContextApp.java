package dev.synccontext.spring.mvc;

import static org.awaitility.Awaitility.await;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.handler.OnContext;
import dev.synccontext.spring.handler.OverlapTally;
import dev.synccontext.testing.Browser;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.servlet.View;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * The application of the {@code @OnContext} MVC tests: one annotated controller ({@code /on/...}) and its
 * unannotated twin ({@code /plain/...}) with the same methods, a page controller for view names, a counter of
 * ASYNC dispatches, and a gate that holds a session's context busy.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({ OverlapTally.class, OnContextApp.OnController.class, OnContextApp.PlainController.class,
        OnContextApp.PageController.class, OnContextApp.Gate.class, AsyncDispatchCounter.class })
class OnContextApp {

    /** A view name's view: renders the model's context name. */
    @Bean
    View tallyPage() {
        return new View() {
            @Override
            public String getContentType() {
                return MediaType.TEXT_PLAIN_VALUE;
            }

            @Override
            public void render(java.util.Map<String, ?> model, jakarta.servlet.http.HttpServletRequest request,
                    jakarta.servlet.http.HttpServletResponse response) throws java.io.IOException {
                response.setContentType(MediaType.TEXT_PLAIN_VALUE);
                response.getWriter().write("page on " + (model == null ? null : model.get("context")));
            }
        };
    }

    /** Holds a session's context busy from a pool thread until released. */
    @Component
    static class Gate extends ContextHold {

        /** Two unannotated bodies meet here before writing: the premise test's certain overlap. */
        volatile CountDownLatch rendezvous = new CountDownLatch(2);

        @Override
        public void reset() {
            super.reset();
            rendezvous = new CountDownLatch(2);
        }

        /**
         * Resets the gate, then holds the context of {@code browser}'s session busy ({@code POST /plain/hold}) and
         * returns that context once a callback holds it.
         */
        RendererSyncContext holdSessionOf(Browser browser) {
            reset();
            browser.get("/plain/context");
            browser.post("/plain/hold");
            await().atMost(Duration.ofSeconds(30)).until(() -> held.get() != null);
            return held.get();
        }
    }

    record Item(@NotBlank String name) {
    }

    static String where(RendererSyncContext injected) {
        return RendererSyncContext.current().map(RendererSyncContext::name).orElse("none") + " " + injected.checkAccess();
    }

    /** Every method of this controller runs on its session's context. */
    @RestController
    @OnContext
    record OnController(OverlapTally tally, RendererSyncContext context) implements IllegalStateAsConflict {

        @PostMapping("/on/increment")
        int increment() {
            return tally.increment();
        }

        @GetMapping("/on/tally")
        String tallyOf() {
            return tally.report();
        }

        @GetMapping("/on/where")
        String where() {
            return OnContextApp.where(context);
        }

        @GetMapping("/on/thread")
        String thread() {
            return Thread.currentThread().getName();
        }

        @GetMapping("/on/entity")
        ResponseEntity<String> entity() {
            return ResponseEntity.status(HttpStatus.CREATED).header("X-Where", OnContextApp.where(context)).body("made");
        }

        @PostMapping("/on/void")
        void nothing() {
            tally.count(tally.count()); // touches the context's state: must be on it
        }

        @GetMapping("/on/accepted")
        @ResponseStatus(HttpStatus.ACCEPTED)
        String accepted() {
            return "accepted";
        }

        @GetMapping("/on/list")
        List<Item> list() {
            return List.of(new Item("a"), new Item("b"));
        }

        @GetMapping("/on/future")
        CompletableFuture<String> future() {
            return CompletableFuture.completedFuture("future " + OnContextApp.where(context));
        }

        @GetMapping(path = "/on/sse", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
        SseEmitter sse() throws java.io.IOException {
            SseEmitter emitter = new SseEmitter();
            emitter.send(SseEmitter.event().data(OnContextApp.where(context)));
            emitter.complete();
            return emitter;
        }

        @PostMapping("/on/items")
        String add(@Valid @RequestBody Item item) {
            tally.increment();
            return "added " + item.name();
        }

        @GetMapping("/on/fail")
        String fail() {
            throw new IllegalStateException("no " + OnContextApp.where(context).endsWith("true"));
        }

        @GetMapping("/on/problem")
        String problem() {
            throw new ResponseStatusException(HttpStatus.I_AM_A_TEAPOT, "short and stout");
        }
    }

    /** The same methods without the annotation, for the premise and for comparing answers. */
    @RestController
    record PlainController(OverlapTally tally, RendererSyncContext sessionContext, Gate gate)
            implements IllegalStateAsConflict {

        /** The session's context, as the session part resolves it on the request thread. */
        @GetMapping("/plain/context")
        String context() {
            return sessionContext.name();
        }

        @PostMapping("/plain/hold")
        String hold() {
            gate.hold(sessionContext);
            return "holding";
        }

        /** Two overlapping calls meet before writing, so at least one update is lost for sure. */
        @PostMapping("/plain/increment")
        int increment() throws InterruptedException {
            int read = tally.count();
            CountDownLatch meet = gate.rendezvous;
            meet.countDown();
            meet.await(10, TimeUnit.SECONDS);
            Thread.yield();
            tally.count(read + 1);
            return read + 1;
        }

        @GetMapping("/plain/tally")
        int tallyOf() {
            return tally.count();
        }

        @PostMapping("/plain/items")
        String add(@Valid @RequestBody Item item) {
            return "added " + item.name();
        }

        @GetMapping("/plain/fail")
        String fail() {
            throw new IllegalStateException("no true");
        }

        @GetMapping("/plain/problem")
        String problem() {
            throw new ResponseStatusException(HttpStatus.I_AM_A_TEAPOT, "short and stout");
        }
    }

    /** A view name from a method on its context. */
    @Controller
    static class PageController {

        @GetMapping("/on/page")
        @OnContext
        String page(Model model) {
            model.addAttribute("context", RendererSyncContext.current().map(RendererSyncContext::name).orElse("none"));
            return "tallyPage";
        }
    }
}
