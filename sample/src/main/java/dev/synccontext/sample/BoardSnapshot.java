package dev.synccontext.sample;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * An immutable picture of one board, taken inside its context and sent as JSON (the response of
 * every {@code /api} call, and each {@code board} message of the live channel). Immutable matters: the
 * channel encodes it later, off the context, on a tab's drain thread.
 *
 * @param version increases by one with every change of the board
 * @param counter the click counter
 * @param items the list, oldest first
 * @param tick the latest clock/price tick, or {@code null} before the first one
 * @param quote the state of the slow "load quote" action
 * @param context statistics of the session's own context
 * @param subscribers how many tabs (event streams and WebSockets) of this session are subscribed to the
 *     board's live channel
 * @param liveSessions how many sessions have a live board in this server
 */
public record BoardSnapshot(long version, long counter, List<Item> items, Tick tick, QuoteState quote,
        ContextStats context, int subscribers, int liveSessions) {

    /** One entry of the list. */
    public record Item(long id, String text, boolean done) {
    }

    /** One tick of the background ticker: the server clock and a simulated index price. */
    public record Tick(long sequence, Instant at, BigDecimal price, BigDecimal change) {
    }

    /**
     * The "load quote" action.
     *
     * @param state {@code idle}, {@code loading}, {@code done} or {@code failed}
     * @param symbol the symbol asked for, or {@code null} when idle
     * @param price the price received ({@code done} only)
     * @param message why it failed ({@code failed} only)
     * @param tookMillis how long the backend took ({@code done} and {@code failed})
     */
    public record QuoteState(String state, String symbol, BigDecimal price, String message, long tookMillis) {

        static final QuoteState IDLE = new QuoteState("idle", null, null, null, 0);

        boolean loading() {
            return "loading".equals(state);
        }
    }

    /**
     * What the session's {@code RendererSyncContext} reports, seen from inside one of its callbacks.
     *
     * @param name the context's name
     * @param queueDepth callbacks waiting behind the one that took this snapshot
     * @param callbacksRun board callbacks this context has run for the session
     * @param lastThread the thread that ran the callback that took this snapshot: a request thread
     *     when it ran inline, a pool thread when it was queued and drained
     * @param unhandled failures of posted callbacks that reached the context's handler
     * @param blocked callbacks the watchdog reported as running too long
     */
    public record ContextStats(String name, int queueDepth, long callbacksRun, String lastThread, long unhandled,
            long blocked) {
    }
}
