package dev.synccontext.live;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.synccontext.RendererSyncContext;
import java.security.SecureRandom;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A live channel: what state on a context pushes to that context's subscribers (a session's open tabs).
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>Publishing never blocks on the network.</b> {@link #publish} numbers the message, keeps it in the
 *       replay buffer and appends it to each subscriber's bounded buffer; each subscriber's drain writes it, on
 *       {@link Builder#executor(Executor) the executor}. One exception, when the channel asks for it
 *       ({@link Builder#inlineWrites}): for one subscriber that was idle and whose transport
 *       {@link LiveTransport#writesWithoutBlocking() writes without blocking}, {@code publish} runs that drain
 *       itself, after releasing this channel's monitor, for at most one batch, so the update goes out at once
 *       instead of waiting behind the executor's queue (see {@link LiveSubscriber}). One subscriber that stops
 *       reading costs its own buffer, never its context's latency: a transport that is not ready is never
 *       written, and its drain waits on the executor.</li>
 *   <li><b>Order.</b> Messages get consecutive sequence numbers in publication order; each subscriber
 *       receives them in that order, skipping only what its {@link OverflowPolicy} discarded, counted.</li>
 *   <li><b>Resume, or a snapshot: no duplicate, no silent gap.</b> {@link #subscribe} with the id of the
 *       last message a client saw ({@link LiveTransport#lastEventId()}) first sends the messages it missed,
 *       when the replay buffer still holds them all and they fit the subscriber's buffer; otherwise (an id
 *       from another node or an earlier channel, which has another epoch; too old; garbage; none) it sends
 *       one snapshot taken now, whose sequence number is the last one published, so the next message
 *       continues from it.</li>
 * </ul>
 *
 * <h2>Threading</h2>
 * Meant to be owned by one context: call {@link #publish} and {@link #subscribe} from its callbacks, so
 * that a snapshot and the messages around it are consistent with the state they describe. The channel is
 * nonetheless thread-safe (its monitor orders publishes, subscribes and closes; it is never held across
 * network I/O); subscribers leave it from any thread when their transport ends.
 */
public final class LiveChannel implements AutoCloseable {

    private static final SecureRandom EPOCHS = new SecureRandom();

    private final String name;
    private final String epoch = Long.toString(EPOCHS.nextLong() & 0xFFFF_FFFF_FFFFL, 36);
    private final OverflowPolicy policy;
    private final int bufferCapacity;
    private final Executor executor;
    private final boolean inlineWrites;
    private final LiveStatistics statistics;
    private final String snapshotEvent;
    private final Supplier<?> snapshot;
    private final @Nullable Runnable subscribersChanged;
    private final CopyOnWriteArrayList<LiveSubscriber> subscribers = new CopyOnWriteArrayList<>();
    private final @Nullable LiveChannelGroup group;

    @GuardedBy("this")
    private final ReplayBuffer replay;
    @GuardedBy("this")
    private long sequence;
    @GuardedBy("this")
    private boolean closed;

    private LiveChannel(Builder builder, Supplier<?> snapshot) {
        this.name = builder.name;
        this.policy = builder.policy;
        this.bufferCapacity = builder.bufferCapacity;
        this.executor = builder.executor;
        this.inlineWrites = builder.inlineWrites;
        this.statistics = builder.statistics;
        this.snapshotEvent = builder.snapshotEvent;
        this.snapshot = snapshot;
        this.subscribersChanged = builder.subscribersChanged;
        this.replay = new ReplayBuffer(builder.replayCapacity);
        this.group = builder.group;
    }

    /** A builder for a channel named {@code name} (used in error messages). */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** Publishes a message without a key (never coalesced). */
    public void publish(String event, Object data) {
        publish(event, null, data);
    }

    /**
     * Publishes {@code data} (immutable: a drain encodes it, on the executor or, for one idle subscriber of a
     * transport that writes without blocking, on this thread before this method returns) as event {@code event} to
     * every subscriber; under {@link OverflowPolicy#COALESCE_BY_KEY} it replaces a buffered message of the
     * same {@code key}.
     *
     * @throws IllegalStateException the channel is closed
     */
    public void publish(String event, @Nullable String key, Object data) {
        Objects.requireNonNull(event, "event");
        Objects.requireNonNull(data, "data");
        LiveSubscriber inline = null;
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("Live channel " + name + " is closed; nothing can be published"
                        + " to it any more (its state went away with its context). Publish to the channel of a"
                        + " live context.");
            }
            LiveMessage message = new LiveMessage(epoch, ++sequence, event, key, data, false);
            replay.add(message);
            statistics.countPublished();
            for (LiveSubscriber subscriber : subscribers) {
                if (subscriber.offerForPublish(message)) {
                    if (inline == null && subscriber.writesInline()) {
                        inline = subscriber;
                    } else {
                        subscriber.schedule();
                    }
                }
            }
        }
        if (inline != null) {
            inline.drainInline(); // outside the monitor: a write never holds up another publish or subscribe
        }
    }

    /**
     * Adds a subscriber over {@code transport}: it first gets what it missed (see the class comment) or a
     * snapshot, then every message published after this call. On a closed channel the transport is closed
     * with {@link CloseReason#CHANNEL_CLOSED} and the subscriber returned is closed.
     */
    public LiveSubscriber subscribe(LiveTransport transport) {
        Objects.requireNonNull(transport, "transport");
        LiveSubscriber subscriber = new LiveSubscriber(this, transport, policy, bufferCapacity, executor, statistics,
                inlineWrites);
        transport.attach(subscriber);
        statistics.subscribed();
        synchronized (this) {
            if (closed) {
                subscriber.close(CloseReason.CHANNEL_CLOSED);
                return subscriber;
            }
            List<LiveMessage> missed = missedSince(transport.lastEventId());
            if (missed != null && missed.size() <= bufferCapacity) {
                missed.forEach(subscriber::offer);
                statistics.resume(true);
            } else {
                subscriber.offer(new LiveMessage(epoch, sequence, snapshotEvent, null,
                        Objects.requireNonNull(snapshot.get(), "the snapshot supplier returned null"), true));
                statistics.resume(false);
            }
            subscribers.add(subscriber);
        }
        if (!subscriber.isOpen()) {
            subscribers.remove(subscriber); // its transport ended before it joined (attach or an overflow said so)
        } else {
            subscribersChanged();
        }
        return subscriber;
    }

    /**
     * Ends the channel with a last message: no publish or subscribe is accepted after this call; each
     * subscriber gets {@code event} with {@code data} after what it has buffered, then its transport is
     * closed ({@link CloseReason#CHANNEL_CLOSED}: the SSE stream completes, a WebSocket closes normally). A
     * subscriber whose client does not read at that moment is closed at once, without it. The way to tell
     * open tabs that the state behind them is gone (a session that ended), so that they stop instead of
     * reconnecting. Idempotent, like {@link #close()}, which it makes a no-op.
     */
    public void end(String event, Object data) {
        Objects.requireNonNull(event, "event");
        Objects.requireNonNull(data, "data");
        LiveMessage last;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            last = new LiveMessage(epoch, ++sequence, event, null, data, false);
            statistics.countPublished();
        }
        if (group != null) {
            group.remove(this); // its subscribers are finishing: a shutdown drain has nothing left to end here
        }
        subscribers.forEach(subscriber -> subscriber.finish(last));
    }

    /** {@link LiveSubscriber#send}: under this monitor, so that it is ordered with every publish and the end. */
    boolean sendTo(LiveSubscriber subscriber, String event, Object data) {
        Objects.requireNonNull(event, "event");
        Objects.requireNonNull(data, "data");
        synchronized (this) {
            if (closed || !subscriber.isOpen()) {
                return false;
            }
            subscriber.offerOwn(new LiveMessage(epoch, sequence, event, null, data, false));
        }
        return subscriber.isOpen();
    }

    /** Closes every subscriber ({@link CloseReason#CHANNEL_CLOSED}); later publishes fail. Idempotent. */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
        }
        if (group != null) {
            group.remove(this);
        }
        subscribers.forEach(subscriber -> subscriber.close(CloseReason.CHANNEL_CLOSED));
    }

    public String name() {
        return name;
    }

    /** Random per channel instance; the first part of every event id. */
    public String epoch() {
        return epoch;
    }

    /** The sequence number of the last message published; 0 before the first. */
    public synchronized long lastSequence() {
        return sequence;
    }

    /** The open subscribers now. */
    public List<LiveSubscriber> subscribers() {
        return List.copyOf(subscribers);
    }

    public OverflowPolicy policy() {
        return policy;
    }

    void remove(LiveSubscriber subscriber) {
        if (subscribers.remove(subscriber)) {
            subscribersChanged();
        }
    }

    private void subscribersChanged() {
        Runnable listener = subscribersChanged;
        boolean open;
        synchronized (this) {
            open = !closed;
        }
        if (listener != null && open) {
            listener.run();
        }
    }

    /** The messages after the id's sequence when they can be replayed; {@code null} when a snapshot is due. */
    @GuardedBy("this")
    private @Nullable List<LiveMessage> missedSince(@Nullable String lastEventId) {
        if (lastEventId == null) {
            return null;
        }
        int dash = lastEventId.lastIndexOf('-');
        if (dash <= 0 || !lastEventId.regionMatches(0, epoch, 0, dash) || dash != epoch.length()) {
            return null;
        }
        long seen;
        try {
            seen = Long.parseLong(lastEventId.substring(dash + 1));
        } catch (NumberFormatException garbage) {
            return null;
        }
        return seen < 0 ? null : replay.after(seen, sequence);
    }

    /** Builds a {@link LiveChannel}; every setting but the snapshot has a default. */
    public static final class Builder {

        private final String name;
        private OverflowPolicy policy = OverflowPolicy.COALESCE_BY_KEY;
        private int bufferCapacity = 64;
        private int replayCapacity = 256;
        private Executor executor = RendererSyncContext.defaultExecutor();
        private boolean inlineWrites;
        private LiveStatistics statistics = new LiveStatistics("none");
        private String snapshotEvent = "snapshot";
        private @Nullable Runnable subscribersChanged;
        private @Nullable LiveChannelGroup group;

        private Builder(String name) {
            this.name = Objects.requireNonNull(name, "name");
        }

        /** What a full subscriber buffer does; default {@link OverflowPolicy#COALESCE_BY_KEY}. */
        public Builder policy(OverflowPolicy policy) {
            this.policy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /** Messages each subscriber may have buffered; at least 1, default 64. */
        public Builder bufferCapacity(int capacity) {
            if (capacity < 1) {
                throw new IllegalArgumentException("Live channel " + name + ": the buffer capacity must be at"
                        + " least 1 message, not " + capacity);
            }
            this.bufferCapacity = capacity;
            return this;
        }

        /** Messages kept for reconnects that resume; 0 means every reconnect gets a snapshot; default 256. */
        public Builder replayCapacity(int capacity) {
            if (capacity < 0) {
                throw new IllegalArgumentException("Live channel " + name + ": the replay capacity must be 0"
                        + " or more, not " + capacity);
            }
            this.replayCapacity = capacity;
            return this;
        }

        /** Where subscribers' drains run; default {@link RendererSyncContext#defaultExecutor()}. */
        public Builder executor(Executor executor) {
            this.executor = Objects.requireNonNull(executor, "executor");
            return this;
        }

        /**
         * Whether a publish to an idle subscriber whose transport {@link LiveTransport#writesWithoutBlocking() writes
         * without blocking} writes on the publishing thread (one batch, for one subscriber per publish; see
         * {@link LiveSubscriber}) instead of submitting that subscriber's drain to {@link #executor(Executor) the
         * executor}. Default {@code false}, every write on the executor: the update of a publish then waits behind
         * the executor's queue, but a subscriber whose drain is queued coalesces and batches what arrives meanwhile,
         * which sheds work when the node falls behind; inline, every message is written and flushed at once.
         * A quiet A/B at 10,000 live sessions showed no lower click-to-update p99 inline, which is why it is off
         * ({@code docs/2026-12-03-capacity-tick-burst.md}, last section).
         */
        public Builder inlineWrites(boolean inlineWrites) {
            this.inlineWrites = inlineWrites;
            return this;
        }

        /** The counters of the channel's scope; default a private, unscoped set. */
        public Builder statistics(LiveStatistics statistics) {
            this.statistics = Objects.requireNonNull(statistics, "statistics");
            return this;
        }

        /** The event name of snapshots; default {@code snapshot}. */
        public Builder snapshotEvent(String event) {
            this.snapshotEvent = Objects.requireNonNull(event, "event");
            return this;
        }

        /** The group the channel belongs to from {@link #build} until it is closed; default none. */
        public Builder group(LiveChannelGroup group) {
            this.group = Objects.requireNonNull(group, "group");
            return this;
        }

        /**
         * Called after a subscriber joined (on the subscribing thread, once it has its snapshot or replay) and
         * after one left (on whichever thread ended it: a container's, a drain's), while the channel is open;
         * so it must not block. The usual body posts to the owning context, e.g. to publish the new number
         * of open tabs. Default none.
         */
        public Builder onSubscribersChanged(Runnable listener) {
            this.subscribersChanged = Objects.requireNonNull(listener, "listener");
            return this;
        }

        /**
         * Builds the channel; {@code snapshot} gives the whole current state (called inside
         * {@link LiveChannel#subscribe}, on the context that owns the channel).
         */
        public LiveChannel build(Supplier<?> snapshot) {
            LiveChannel channel = new LiveChannel(this, Objects.requireNonNull(snapshot, "snapshot"));
            if (group != null) {
                group.add(channel);
            }
            return channel;
        }
    }
}
