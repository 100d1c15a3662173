package dev.synccontext.sample;

import java.time.Duration;

import dev.synccontext.spring.handler.OnContext;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * Deliberate faults, for demonstrating and testing the context's diagnostics (the watchdog's blocked
 * callbacks, the unhandled-exception counter, their metrics and dashboard panels). Off unless
 * {@code sample.faults.enabled=true}: a callback that blocks holds a request or pool thread, which no
 * public deployment should let anyone do.
 */
@RestController
@RequestMapping(path = "/api/faults", produces = MediaType.APPLICATION_JSON_VALUE)
@ConditionalOnBooleanProperty("sample.faults.enabled")
final class FaultsController {

    private final Board board; // the session's, resolved per call
    private final Duration blockFor;

    FaultsController(Board board, @Value("${sample.faults.block-for:3s}") Duration blockFor) {
        this.board = board;
        this.blockFor = blockFor;
    }

    /**
     * Runs a callback that blocks for {@code sample.faults.block-for} (default 3 s, longer than the
     * default {@code synccontext.blocked-threshold} of 2 s), so the watchdog reports it. Answers when
     * it has finished; the session's other work waits meanwhile, as it would behind any slow callback.
     */
    @OnContext
    @PostMapping("/blocking-callback")
    BoardSnapshot blockingCallback() {
        return board.block(blockFor);
    }

    /**
     * Posts a callback that throws; its failure goes to the context's unhandled-exception handler (logged
     * at ERROR and counted). Answers 202 at once: a posted callback never runs inside the call.
     */
    @PostMapping("/failing-post")
    @ResponseStatus(HttpStatus.ACCEPTED)
    void failingPost() {
        board.context().post(board::failOnPurpose); // on the request thread, the proxy is the session's board
    }
}
