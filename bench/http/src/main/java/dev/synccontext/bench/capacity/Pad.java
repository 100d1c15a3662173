package dev.synccontext.bench.capacity;

import java.util.concurrent.RejectedExecutionException;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.live.LiveChannel;
import dev.synccontext.live.OverflowPolicy;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.spring.live.LiveChannels;
import dev.synccontext.spring.scope.ContextScoped;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import org.springframework.stereotype.Component;

/**
 * One session's state and its live channel. Every method but {@link #context()}, {@link #postTick} and the
 * lifecycle callbacks runs inside the session's context, so the fields are plain.
 *
 * <p>A click's change is published without a key (never coalesced: the harness waits for each click's own
 * update); a tick's with the key {@code tick}, so a tab that lags keeps only the latest tick.
 */
@Component
@ContextScoped
public class Pad {

    static final String EVENT = "pad";
    private static final String TICK_KEY = "tick";

    private final RendererSyncContext context;
    private final LivePads livePads;
    private final LiveChannel live;

    // ---- owned by `context` ----
    private long version;
    private long clicks;
    private long tick;
    private long price;
    private boolean ended;

    Pad(RendererSyncContext context, SyncContextRegistry registry, LivePads livePads, LiveChannels channels) {
        // Made inside the context it belongs to (a WebSocket's, or an HTTP session's callback), or on a request
        // thread of the HTTP session whose context the injected proxy names.
        this.context = RendererSyncContext.current().orElseGet(() -> registry.resolve(context));
        this.livePads = livePads;
        this.live = channels.builder("pad of " + this.context.name(), LiveChannels.DEFAULT_SCOPE)
                .policy(OverflowPolicy.COALESCE_BY_KEY)
                .snapshotEvent(EVENT)
                .build(() -> view(0));
    }

    @PostConstruct
    void register() {
        livePads.add(this);
    }

    /** The session's own context (not a proxy). */
    RendererSyncContext context() {
        return context;
    }

    /** The channel a tab subscribes to, inside the context. */
    LiveChannel live() {
        context.assertAccess();
        return live;
    }

    /** A click: counts it and pushes the change carrying the click's nonce. */
    PadView click(long nonce) {
        context.assertAccess();
        clicks++;
        version++;
        PadView view = view(nonce);
        if (!ended) {
            live.publish(EVENT, view);
        }
        return view;
    }

    /**
     * Queues a tick from the ticker.
     *
     * @return {@code false} if the context no longer accepts work (its session is ending)
     */
    boolean postTick(long sequence, long newPrice) {
        try {
            context.post(() -> applyTick(sequence, newPrice));
            return true;
        } catch (RejectedExecutionException closed) {
            return false;
        }
    }

    /** A tick, inside the context (a broadcast's callback). */
    void tick(long sequence, long newPrice) {
        context.assertAccess();
        applyTick(sequence, newPrice);
    }

    private void applyTick(long sequence, long newPrice) {
        tick = sequence;
        price = newPrice;
        version++;
        if (!ended) {
            live.publish(EVENT, TICK_KEY, view(0));
        }
    }

    private PadView view(long nonce) {
        return new PadView(version, clicks, nonce, tick, price);
    }

    @PreDestroy
    void sessionEnded() {
        livePads.remove(this);
        if (!ended) {
            ended = true;
            live.end("ended", "session ended");
        }
    }
}
