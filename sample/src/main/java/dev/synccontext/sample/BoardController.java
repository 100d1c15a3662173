package dev.synccontext.sample;

import java.util.concurrent.CompletableFuture;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.handler.OnContext;
import dev.synccontext.spring.live.LiveSse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The board's HTTP API. Each handler but the event stream runs on the session's {@link RendererSyncContext}
 * ({@link OnContext}): Spring binds and validates its input on the request thread, then the body runs on
 * the context, inline when the session is idle (answered at once) and after the session's other work when
 * another tab or the ticker holds it (answered asynchronously; no request thread waits). So the body calls
 * the session's {@link Board} (a {@code @ContextScoped} bean) directly.
 *
 * <p>Every change answers with the board as it was right after that change ({@link BoardSnapshot}).
 * Refusals are problem-detail JSON ({@link ApiErrors}); a session whose context is closing answers 503.
 */
@RestController
@RequestMapping(path = "/api", produces = MediaType.APPLICATION_JSON_VALUE)
final class BoardController {

    /** The session's board: a proxy that resolves, inside each body, to this session's instance. */
    private final Board board;
    private final QuoteBackend backend;
    private final SampleProperties properties;
    private final LiveSse sse;

    BoardController(Board board, QuoteBackend backend, SampleProperties properties, LiveSse sse) {
        this.board = board;
        this.backend = backend;
        this.properties = properties;
        this.sse = sse;
    }

    /** The session's board; starts a session (and its board) when there is none. */
    @OnContext
    @GetMapping("/board")
    BoardSnapshot board() {
        return board.snapshot();
    }

    @OnContext
    @PostMapping("/counter/increment")
    BoardSnapshot increment() {
        return board.increment();
    }

    @OnContext
    @PostMapping("/counter/reset")
    BoardSnapshot resetCounter() {
        return board.resetCounter();
    }

    @OnContext
    @PostMapping(path = "/items", consumes = MediaType.APPLICATION_FORM_URLENCODED_VALUE)
    BoardSnapshot addItem(@RequestParam String text) {
        return board.addItem(Inputs.itemText(text, properties.maxItemLength()));
    }

    @OnContext
    @PostMapping("/items/{id}/toggle")
    BoardSnapshot toggleItem(@PathVariable long id) {
        return board.toggleItem(id);
    }

    @OnContext
    @DeleteMapping("/items/{id}")
    BoardSnapshot removeItem(@PathVariable long id) {
        return board.removeItem(id);
    }

    /**
     * Loads a quote from the slow backend. The body (mark "loading", start the call) runs on the context
     * and releases it at once, so clicks and ticks go on while the backend works; the answer arrives on the
     * backend's thread and hops back onto the session's context to be shown. Answers once the quote is
     * shown (404 if the backend had none; the board shows that too).
     */
    @OnContext
    @PostMapping(path = "/quote", consumes = MediaType.APPLICATION_FORM_URLENCODED_VALUE)
    CompletableFuture<BoardSnapshot> loadQuote(@RequestParam String symbol) {
        String checked = Inputs.symbol(symbol);
        // The backend's answer is a stage outside any handler: it hops back with the explicit API.
        return board.startQuote(checked, backend::fetch).thenApplyAsync(board::answer, board.context());
    }

    /**
     * The session's live board as Server-Sent Events ({@link LiveSse}): a {@code board} event with the whole
     * board at once and after every change, and an {@code ended} event when the session ends. Every event
     * has an id; a browser that reconnects sends the last one as {@code Last-Event-ID} and gets what it
     * missed (or the whole board when the channel no longer holds it).
     *
     * <p>Not {@link OnContext}: the stream must start on the request thread (Servlet {@code startAsync}),
     * and only its subscription runs on the context. On the request thread the board proxy resolves to
     * the session's board, which gives the session's own context; inside that context's callback the proxy
     * is the same board again, whose channel the tab subscribes to.
     */
    @GetMapping(path = "/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    void events(HttpServletRequest request, HttpServletResponse response) {
        sse.subscribe(request, response, board.context(), board::live);
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
}
