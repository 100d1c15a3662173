package dev.synccontext.bench.capacity;

import dev.synccontext.spring.handler.OnContext;
import dev.synccontext.spring.live.LiveSse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/** A session's tab: its event stream, and its click (on the session's context). */
@RestController
@RequestMapping(path = "/pad", produces = MediaType.APPLICATION_JSON_VALUE)
final class PadController {

    private final Pad pad;
    private final LiveSse sse;
    private final ServerClickTimes times;

    PadController(Pad pad, LiveSse sse, ServerClickTimes times) {
        this.pad = pad;
        this.sse = sse;
        this.times = times;
    }

    /** The session's live pad over Server-Sent Events; starts the session when there is none. */
    @GetMapping(path = "/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    void events(HttpServletRequest request, HttpServletResponse response) {
        request.getSession(); // the stream's response carries the session cookie the clicks send back
        sse.subscribe(request, response, pad.context(), pad::live);
    }

    /** A click carrying a nonce; its update (event {@code pad}) carries the same nonce. */
    @OnContext
    @PostMapping("/click")
    PadView click(@RequestParam long nonce) {
        if (nonce <= 0) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "nonce must be positive, was " + nonce);
        }
        return pad.click(nonce);
    }

    /**
     * The server's share of the clicks' wait since the last call ({@link ServerClickTimes}), as
     * {@code count p50 p99 max} in milliseconds; starts a new window. Not session-scoped work: no session needed.
     */
    @GetMapping(path = "/server-times", produces = MediaType.TEXT_PLAIN_VALUE)
    String serverTimes() {
        return times.nextWindow();
    }
}
