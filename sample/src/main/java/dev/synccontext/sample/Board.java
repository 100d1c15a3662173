package dev.synccontext.sample;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.live.LiveChannels;
import dev.synccontext.spring.scope.ContextScoped;
import dev.synccontext.live.LiveChannel;
import dev.synccontext.live.LiveSubscriber;
import dev.synccontext.live.OverflowPolicy;
import dev.synccontext.registry.SyncContextRegistry;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import org.springframework.stereotype.Component;

import dev.synccontext.sample.BoardSnapshot.ContextStats;
import dev.synccontext.sample.BoardSnapshot.Item;
import dev.synccontext.sample.BoardSnapshot.QuoteState;
import dev.synccontext.sample.BoardSnapshot.Tick;

/**
 * One HTTP session's board: a counter, a list, the latest tick, a quote, and the live channel to the
 * session's open tabs.
 *
 * <h2>Ownership</h2>
 * The board belongs to its session's {@link RendererSyncContext}. Every method except
 * {@link #context()}, {@link #postTick}, the test views {@link #tabs()} and {@link #liveSequence()}, and
 * the lifecycle callbacks must run inside a callback of that context, and
 * checks it with {@link RendererSyncContext#assertAccess()}: a call from any other thread fails
 * loudly instead of racing. Because the context runs its callbacks one at a time, in order, with
 * each one happening-before the next, the state below is plain fields — no locks, no atomics,
 * no concurrent collections — even though clicks from several tabs, the ticker and the quote
 * backend all change it from different threads.
 *
 * <h2>Live updates</h2>
 * Each change bumps {@code version} and publishes a fresh {@link BoardSnapshot} to the board's
 * {@link LiveChannel}, from inside the context, so every tab sees the changes in the same order. Publishing
 * never writes to the network: it appends to each tab's bounded buffer, and the tab's own drain writes it
 * off the context (over Server-Sent Events or a WebSocket). A tab whose client stops reading therefore costs
 * its own buffer, never the session's clicks: the channel coalesces by key ({@code board}), so a stalled
 * tab holds at most the latest board and gets it when it reads again. A tab that connects, or reconnects
 * with an id the channel no longer holds, gets the whole board first (event {@code board} too).
 */
@Component
@ContextScoped
public class Board {

    private static final String SESSION_ENDED = "It was ended from one of its tabs, or it expired.";
    /** The event name of every board, snapshot or change: the page listens for this one name. */
    static final String BOARD_EVENT = "board";
    /** The last event of every tab when the session (or the server) ends: the page stops reconnecting. */
    static final String ENDED_EVENT = "ended";

    private final RendererSyncContext context;
    private final LiveBoards liveBoards;
    private final SampleProperties properties;
    /** Thread-safe itself; publishing and subscribing happen inside the context, consistent with the state. */
    private final LiveChannel live;

    // ---- owned by `context`: touched only inside its callbacks ----
    private long version;
    /** The counter and the list: durable, through this proxy (see {@link BoardState}). */
    private final BoardState state;
    private Tick tick;
    private QuoteState quote = QuoteState.IDLE;
    private long quoteTicket;
    private long callbacksRun;
    private String lastThread = "";
    private boolean ended; // the channel was ended: nothing more is published

    /**
     * @param context the session's context as injected: a proxy that resolves to the current
     *     request's session (or to the running callback's context). The board keeps the session's own
     *     instance behind it, because ticks and backend answers reach the board on threads that have
     *     neither a request nor a running callback.
     * @param channels builds the board's channel with the {@code synccontext.live.*} settings
     */
    Board(RendererSyncContext context, SyncContextRegistry registry, LiveBoards liveBoards,
            SampleProperties properties, LiveChannels channels, BoardState state) {
        this.context = registry.resolve(context);
        this.state = state;
        this.liveBoards = liveBoards;
        this.properties = properties;
        this.live = channels.builder("board of " + this.context.name(), LiveChannels.DEFAULT_SCOPE)
                .policy(OverflowPolicy.COALESCE_BY_KEY) // a board is its latest value: never queue stale ones
                .snapshotEvent(BOARD_EVENT)
                .onSubscribersChanged(this::tabsChanged)
                .build(this::snapshotNow);
    }

    @PostConstruct
    void register() {
        liveBoards.add(this);
    }

    /** The session's own context (not a proxy): usable from any thread, for example as an executor. */
    RendererSyncContext context() {
        return context;
    }

    // ---- callbacks: each runs inside the context ----

    BoardSnapshot snapshot() {
        enter();
        return snapshotNow();
    }

    BoardSnapshot increment() {
        enter();
        state.setCounter(state.getCounter() + 1);
        return changed();
    }

    BoardSnapshot resetCounter() {
        enter();
        state.setCounter(0);
        return changed();
    }

    BoardSnapshot addItem(String text) {
        enter();
        List<Item> items = state.getItems();
        if (items.size() >= properties.maxItems()) {
            throw BoardException.conflict("The list is full (" + properties.maxItems()
                    + " items); remove one before adding another.");
        }
        long id = state.getNextItemId();
        state.setNextItemId(id + 1);
        items.add(new Item(id, text, false));
        return changed();
    }

    BoardSnapshot toggleItem(long id) {
        enter();
        int index = indexOf(id);
        List<Item> items = state.getItems();
        Item item = items.get(index);
        items.set(index, new Item(item.id(), item.text(), !item.done()));
        return changed();
    }

    BoardSnapshot removeItem(long id) {
        enter();
        state.getItems().remove(indexOf(id));
        return changed();
    }

    void tick(Tick next) {
        enter();
        tick = next;
        changed();
    }

    /**
     * Marks a quote as loading and starts the backend call; the board is released as soon as this
     * returns, while the backend works. Only one quote loads at a time.
     *
     * @return the backend's answer, tagged so that {@link #answer} can tell it is still the one
     *     the board waits for; it never completes exceptionally (a backend failure is an answer too)
     */
    CompletableFuture<QuoteAnswer> startQuote(String symbol,
            Function<String, CompletableFuture<QuoteBackend.Quote>> backend) {
        enter();
        if (quote.loading()) {
            throw BoardException.conflict("A quote for " + quote.symbol()
                    + " is still loading; wait for it before asking for another.");
        }
        long ticket = ++quoteTicket;
        long startedNanos = System.nanoTime();
        quote = new QuoteState("loading", symbol, null, null, 0);
        changed();
        return backend.apply(symbol).handle((answer, failure) -> new QuoteAnswer(ticket, symbol, answer,
                unwrap(failure), Duration.ofNanos(System.nanoTime() - startedNanos).toMillis()));
    }

    /**
     * Shows a backend answer (on the context again, after the backend's own thread delivered it).
     *
     * @throws BoardException 404 after showing the failure, when the backend had no quote
     */
    BoardSnapshot answer(QuoteAnswer answer) {
        enter();
        if (answer.ticket() != quoteTicket) {
            return snapshotNow(); // a later request replaced this one; its answer is the one to show
        }
        if (answer.failure() != null) {
            quote = new QuoteState("failed", answer.symbol(), null, answer.failure().getMessage(),
                    answer.tookMillis());
            changed();
            throw BoardException.notFound(answer.failure().getMessage());
        }
        quote = new QuoteState("done", answer.symbol(), answer.quote().price(), null, answer.tookMillis());
        return changed();
    }

    /**
     * The board's live channel, for a tab to subscribe to inside the context ({@link BoardController#events},
     * {@link BoardSocketHandler}): the tab gets the whole board (or what it missed, when it resumes), then
     * every change. The other tabs get a board too, since the number of open tabs is part of it. Once the
     * board has ended, a subscriber is closed at once.
     */
    LiveChannel live() {
        enter();
        return live;
    }

    /** The open tabs as the channel sees them (thread-safe; for tests that look at a tab's buffer). */
    List<LiveSubscriber> tabs() {
        return live.subscribers();
    }

    /** The sequence number of the channel's last message (thread-safe; for tests, with {@link #tabs()}). */
    long liveSequence() {
        return live.lastSequence();
    }

    /** A tab joined or left: the new count reaches every tab with the next board. */
    void countTabs() {
        enter();
        changed();
    }

    /** Tells every open tab that the session ended, and closes their streams. */
    void end() {
        enter();
        endStreams(SESSION_ENDED);
    }

    /** A callback that blocks its context (a fault, for {@link FaultsController}). */
    BoardSnapshot block(Duration duration) {
        enter();
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
        return snapshotNow();
    }

    /** A callback that fails (a fault, for {@link FaultsController}). */
    void failOnPurpose() {
        enter();
        throw new IllegalStateException("Deliberate failure of a posted callback (POST /api/faults/failing-post)");
    }

    // ---- lifecycle ----

    /**
     * The session ended (invalidated or expired): its context is released, and this runs on it, after every
     * callback queued before (the {@code @ContextScoped} guarantee), so no click or tick can touch the board
     * after it. After a forced close (the context's queued work outlived the shutdown timeout) it runs on the
     * closing thread instead, when nothing else runs on the board either.
     */
    @PreDestroy
    void sessionEnded() {
        liveBoards.remove(this);
        endStreams(SESSION_ENDED);
    }

    /**
     * Queues a tick from the background ticker.
     *
     * @return {@code false} if the context no longer accepts work (its session is ending)
     */
    boolean postTick(Tick next) {
        try {
            context.post(() -> tick(next));
            return true;
        } catch (RejectedExecutionException closed) {
            return false;
        }
    }

    // ---- internals ----

    private void enter() {
        context.assertAccess();
        callbacksRun++;
        lastThread = Thread.currentThread().getName();
    }

    private int indexOf(long id) {
        List<Item> items = state.getItems();
        for (int i = 0; i < items.size(); i++) {
            if (items.get(i).id() == id) {
                return i;
            }
        }
        throw BoardException.notFound("There is no item " + id + " on this board.");
    }

    private BoardSnapshot changed() {
        version++;
        BoardSnapshot snapshot = snapshotNow();
        if (!ended) { // after the server began stopping, clicks still answer, but no tab is listening
            live.publish(BOARD_EVENT, BOARD_EVENT, snapshot); // one key: a tab that lags keeps only the latest
        }
        return snapshot;
    }

    /**
     * The channel's listener: a tab joined or left, on whichever thread that happened (the subscribing
     * callback, a container thread, a drain). Never touches the board there: it queues the recount.
     */
    private void tabsChanged() {
        try {
            context.post(this::countTabs);
        } catch (RejectedExecutionException sessionEnding) {
            // The board is ending with its session; its channel's end tells every tab.
        }
    }

    private BoardSnapshot snapshotNow() {
        ContextStats stats = new ContextStats(context.name(), context.queueDepth(), callbacksRun, lastThread,
                context.unhandledExceptionCount(), context.blockedCallbackCount());
        return new BoardSnapshot(version, state.getCounter(), List.copyOf(state.getItems()), tick, quote, stats,
                live.subscribers().size(), liveBoards.size());
    }

    /**
     * Ends the channel with an {@code ended} event: each tab gets it after what it has buffered, then its
     * stream closes (a tab whose client does not read is closed at once). Later changes publish nothing.
     */
    private void endStreams(String reason) {
        if (ended) {
            return;
        }
        ended = true;
        live.end(ENDED_EVENT, reason);
    }

    private static Throwable unwrap(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }

    /** What the quote backend answered for one request of this board. */
    record QuoteAnswer(long ticket, String symbol, QuoteBackend.Quote quote, Throwable failure, long tookMillis) {
    }
}
