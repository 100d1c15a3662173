package dev.synccontext.sample;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;

import dev.synccontext.RendererSyncContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * The board's HTTP API. Each handler validates its input on the request thread, then hands the change
 * to the session's {@link RendererSyncContext}: when the session is idle the change runs right here,
 * inline; when another tab or the ticker holds it, the change waits its turn and the request completes
 * asynchronously (Spring MVC accepts the returned future; no request thread waits).
 *
 * <p>Every change answers with the board as it was right after that change ({@link BoardSnapshot}).
 * Refusals are problem-detail JSON ({@link ApiErrors}).
 */
@RestController
@RequestMapping(path = "/api", produces = MediaType.APPLICATION_JSON_VALUE)
final class BoardController {

    /** A scoped proxy: on each request it is the context of that request's HTTP session. */
    private final RendererSyncContext context;
    private final ObjectProvider<Board> boards;
    private final QuoteBackend backend;
    private final SampleProperties properties;

    BoardController(RendererSyncContext context, ObjectProvider<Board> boards, QuoteBackend backend,
            SampleProperties properties) {
        this.context = context;
        this.boards = boards;
        this.backend = backend;
        this.properties = properties;
    }

    /** The session's board; starts a session (and its board) when there is none. */
    @GetMapping("/board")
    CompletableFuture<BoardSnapshot> board() {
        Board board = boards.getObject();
        return context.invokeAsync(board::snapshot);
    }

    @PostMapping("/counter/increment")
    CompletableFuture<BoardSnapshot> increment() {
        Board board = boards.getObject();
        return context.invokeAsync(board::increment);
    }

    @PostMapping("/counter/reset")
    CompletableFuture<BoardSnapshot> resetCounter() {
        Board board = boards.getObject();
        return context.invokeAsync(board::resetCounter);
    }

    @PostMapping(path = "/items", consumes = MediaType.APPLICATION_FORM_URLENCODED_VALUE)
    CompletableFuture<BoardSnapshot> addItem(@RequestParam String text) {
        String checked = Inputs.itemText(text, properties.maxItemLength());
        Board board = boards.getObject();
        return context.invokeAsync(() -> board.addItem(checked));
    }

    @PostMapping("/items/{id}/toggle")
    CompletableFuture<BoardSnapshot> toggleItem(@PathVariable long id) {
        Board board = boards.getObject();
        return context.invokeAsync(() -> board.toggleItem(id));
    }

    @DeleteMapping("/items/{id}")
    CompletableFuture<BoardSnapshot> removeItem(@PathVariable long id) {
        Board board = boards.getObject();
        return context.invokeAsync(() -> board.removeItem(id));
    }

    /**
     * Loads a quote from the slow backend. The synchronous part (mark "loading", start the call) runs
     * in the context and releases it at once, so clicks and ticks go on while the backend works; the
     * answer arrives on the backend's thread and hops back onto the session's context to be shown.
     * Answers once the quote is shown (404 if the backend had none; the board shows that too).
     */
    @PostMapping(path = "/quote", consumes = MediaType.APPLICATION_FORM_URLENCODED_VALUE)
    CompletableFuture<BoardSnapshot> loadQuote(@RequestParam String symbol) {
        String checked = Inputs.symbol(symbol);
        Board board = boards.getObject();
        // The proxy only works on request threads; the continuation runs on the backend's thread.
        RendererSyncContext sessionContext = board.context();
        return context.invokeAsyncStage(() -> board.startQuote(checked, backend::fetch))
                .thenApplyAsync(board::answer, sessionContext);
    }

    /**
     * The session's live board as Server-Sent Events: a {@code board} event with the whole board at
     * once and after every change, and an {@code ended} event when the session ends.
     */
    @GetMapping(path = "/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    SseEmitter events() {
        Board board = boards.getObject();
        RendererSyncContext sessionContext = board.context();
        SseEmitter emitter = new SseEmitter(properties.eventsTimeout().toMillis());
        Runnable forget = () -> {
            try {
                sessionContext.post(() -> board.unsubscribe(emitter));
            } catch (RejectedExecutionException sessionEnding) {
                // The board is ending with its session and drops every stream itself.
            }
        };
        emitter.onCompletion(forget);
        emitter.onError(failure -> forget.run());
        CompletableFuture<Void> subscribed = context.invokeAsync(() -> board.subscribe(emitter));
        throwIfFailed(subscribed);
        subscribed.whenComplete((ignored, failure) -> {
            if (failure != null) {
                emitter.complete(); // refused after queueing (the session ended meanwhile)
            }
        });
        return emitter;
    }

    /** Ends the session (all its tabs get an {@code ended} event). Ending no session is a no-op. */
    @DeleteMapping("/session")
    ResponseEntity<Void> endSession(HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        if (session != null) {
            session.invalidate();
        }
        return ResponseEntity.noContent().build();
    }

    /** Surfaces a refusal that happened inside the call (closed or full context) as this request's error. */
    private static void throwIfFailed(CompletableFuture<?> future) {
        if (!future.isCompletedExceptionally()) {
            return;
        }
        try {
            future.join();
        } catch (CompletionException failed) {
            if (failed.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw failed;
        }
    }
}
