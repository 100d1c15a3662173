package dev.synccontext.cluster;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.live.LiveSse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import org.springframework.core.env.Environment;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The {@link SessionBoard}'s endpoints: {@code POST /live/increment} changes it (inside the session's context,
 * joined before the response commits, so Spring Session saves the value with the response), and
 * {@code GET /live/events} is its event stream (autoconfigure/README.md's {@code BoardController}: the stream
 * starts on the request's thread, the subscription runs on the context; ids, resume by
 * {@code Last-Event-ID}, a snapshot otherwise).
 */
@RestController
class SessionBoardController {

    private final RendererSyncContext context;
    private final SessionBoard board;
    private final LiveSse sse;
    private final LiveArrivals arrivals;
    private final String node;

    SessionBoardController(RendererSyncContext context, SessionBoard board, LiveSse sse, LiveArrivals arrivals,
            Environment environment) {
        this.context = context;
        this.board = board;
        this.sse = sse;
        this.arrivals = arrivals;
        this.node = environment.getProperty("synccontext.session.node-id", "?");
    }

    @PostMapping("/live/increment")
    ResponseEntity<String> increment(HttpSession session) {
        SessionBoard.State state = context.invokeAsync(() -> board.increment(session)).join();
        return ResponseEntity.ok().header("X-Node", node).body(String.valueOf(state.count()));
    }

    @GetMapping(path = Nginx.EVENT_STREAMS, produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    void events(HttpServletRequest request, HttpServletResponse response, HttpSession session) {
        arrivals.add(session.getId(), request.getHeader("Last-Event-ID"));
        sse.subscribe(request, response, context, () -> board.liveFor(session));
    }
}
