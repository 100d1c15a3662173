package dev.synccontext.live;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.jspecify.annotations.Nullable;

/**
 * One subscriber of a {@link LiveChannel} (one open tab): a bounded outbound buffer and the drain that
 * writes it through its {@link LiveTransport}, on the channel's executor, or, for a publish that finds it idle and
 * a transport that never blocks, once on the publishing thread.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>Never blocks the publisher.</b> {@link LiveChannel#publish} appends to this buffer (a few field
 *       writes under this subscriber's monitor, which no network call ever holds) and, when no drain is under
 *       way, starts one: on the channel's executor, or on the publishing thread when the transport
 *       {@link LiveTransport#writesWithoutBlocking() writes without blocking} and the channel allows it
 *       ({@link LiveChannel.Builder#inlineWrites}). Such an inline drain runs after the channel's monitor is
 *       released, writes at most one batch ({@value #BATCH} messages, on an idle subscriber usually the one just
 *       published) and flushes; whatever is left, a transport that is not ready, and the close of the transport
 *       go to the executor as they would from any drain. It runs for at most one subscriber per publish (the
 *       others' drains are submitted first) and never inside another inline drain on the same thread (a
 *       publish from a transport's callback submits its drain instead). Every other entry point
 *       ({@link #send}, a subscribe's snapshot or replay, {@link #writable()}, the channel's end) submits.</li>
 *   <li><b>Bounded.</b> At most {@link #capacity()} messages are buffered; what does not fit is handled by
 *       the channel's {@link OverflowPolicy} and counted ({@link #dropped()}).</li>
 *   <li><b>In order.</b> At most one drain runs at a time and it writes in publication order, so this
 *       subscriber's sequence numbers strictly increase; they skip only what the policy discarded.</li>
 *   <li><b>Only when ready.</b> The drain asks {@link LiveTransport#ready()} before every write and every flush,
 *       also after a {@link #writable()} it did not wait for, so a transport is never written or flushed while it
 *       said it cannot take more (a Servlet output stream would throw).</li>
 *   <li><b>No thread while stalled.</b> A transport that cannot write says so and calls
 *       {@link #writable()} later; until then no task of this subscriber is scheduled or running.</li>
 * </ul>
 *
 * <h2>States (guarded by this object's monitor)</h2>
 * {@link #IDLE} → {@link #DRAINING} when a message arrives; {@link #DRAINING} → {@link #WAITING} when the
 * transport is not ready; {@link #WAITING} → {@link #DRAINING} on {@link #writable()}; {@link #DRAINING} →
 * {@link #IDLE} when the buffer is empty and the transport flushed; any → {@link #CLOSED}, once.
 */
public final class LiveSubscriber {

    /** Nothing to write, no drain scheduled: the next message starts one. */
    private static final int IDLE = 0;
    /**
     * A drain is scheduled, running, or owed to a publisher that runs it inline once it has left the channel's
     * monitor; only that drain touches the transport.
     */
    private static final int DRAINING = 1;
    /** The transport is not ready; it calls {@link #writable()} when it is. No drain scheduled. */
    private static final int WAITING = 2;
    /** Ended; the buffer is empty and stays so. */
    private static final int CLOSED = 3;

    /** Messages one drain writes before it resubmits itself, so one busy subscriber cannot pin a thread. */
    private static final int BATCH = 64;

    /** Whether this thread is inside an inline drain: a publish from within it submits, so inline never nests. */
    private static final ThreadLocal<Boolean> IN_INLINE_DRAIN = ThreadLocal.withInitial(() -> Boolean.FALSE);

    private final LiveChannel channel;
    private final LiveTransport transport;
    private final OverflowPolicy policy;
    private final int capacity;
    private final Executor executor;
    private final LiveStatistics statistics;
    /** A publish that finds this subscriber idle may run its drain on the publishing thread. */
    private final boolean writesInline;
    private final Runnable drain = this::drain;

    @GuardedBy("this")
    private final LinkedHashMap<Object, LiveMessage> buffer = new LinkedHashMap<>();
    @GuardedBy("this")
    private int state = IDLE;
    /** {@link #writable()} was called while a drain ran: the drain asks the transport again before it parks. */
    @GuardedBy("this")
    private boolean writableSignal;
    /** {@link #finish} was called: the drain writes what is buffered, then ends this subscriber. */
    @GuardedBy("this")
    private boolean finishing;
    /** {@link #close} found a drain scheduled or running: that drain closes the transport when it stops. */
    @GuardedBy("this")
    private boolean closeByDrain;
    @GuardedBy("this")
    private long dropped;
    @GuardedBy("this")
    private int highWater;
    @GuardedBy("this")
    private @Nullable CloseReason closeReason;

    // ---- written only by the drain (one at a time; each drain happens-after the previous one) ----
    private volatile long lastWritten = -1;
    private volatile long written;

    LiveSubscriber(LiveChannel channel, LiveTransport transport, OverflowPolicy policy, int capacity,
            Executor executor, LiveStatistics statistics, boolean inlineWrites) {
        this.channel = channel;
        this.transport = transport;
        this.policy = policy;
        this.capacity = capacity;
        this.executor = executor;
        this.statistics = statistics;
        this.writesInline = inlineWrites && transport.writesWithoutBlocking();
    }

    /**
     * Called by the transport when a write it could not start (or that was in flight) may go on. Safe from
     * any thread, any number of times.
     */
    public void writable() {
        boolean schedule = false;
        synchronized (this) {
            if (state == WAITING) {
                state = DRAINING; // even with an empty buffer: the transport may hold back bytes to flush
                schedule = true;
            } else if (state == DRAINING) {
                writableSignal = true; // the drain may be about to park: it asks the transport once more
            }
        }
        if (schedule) {
            schedule();
        }
    }

    /** Called by the transport when its client went away or a write failed: ends this subscriber. */
    public void gone(@Nullable Throwable cause) {
        close(CloseReason.GONE);
    }

    /**
     * Sends one message to this subscriber only (an answer to what its client sent, such as a refusal), through
     * its own buffer, so it never races the drain's writes: after every message the channel published before
     * this call, before every one published after it. It is not kept for replay, no other subscriber sees it,
     * and it is never coalesced (a full buffer applies the policy's drop-oldest, or disconnects). Its id carries
     * the sequence number of the channel's last published message, as a snapshot's does, so a reconnect from it
     * resumes right after that message. Safe from any thread; never blocks on the network.
     *
     * @return {@code false} if nothing was buffered: this subscriber or its channel has ended (or, under
     *     {@link OverflowPolicy#DISCONNECT}, this message overflowed the buffer and ended the subscriber)
     */
    public boolean send(String event, Object data) {
        return channel.sendTo(this, event, data);
    }

    /**
     * Called by a transport when the bound of its own connection gave up on a client that does not keep up
     * (Spring closing a STOMP session for its send time or buffer size limit): ends this subscriber
     * ({@link CloseReason#TOO_SLOW}), counted in {@link LiveStatistics#slowDisconnects()} as a full buffer
     * under {@link OverflowPolicy#DISCONNECT} is. Idempotent; a no-op on an ended subscriber.
     */
    public void tooSlow() {
        if (close(CloseReason.TOO_SLOW)) {
            statistics.slowDisconnect();
        }
    }

    /** Ends this subscriber (the application unsubscribes it); idempotent. */
    public void cancel() {
        close(CloseReason.CANCELLED);
    }

    /**
     * Ends this subscriber because the server is shutting down ({@link CloseReason#GOING_AWAY}): what is
     * still buffered is discarded (the client gets a snapshot where it reconnects), and the transport tells
     * the client to go elsewhere. Idempotent; a no-op on an ended subscriber.
     */
    public void goAway() {
        close(CloseReason.GOING_AWAY);
    }

    /** The buffer's bound. */
    public int capacity() {
        return capacity;
    }

    /** Messages buffered and not yet handed to the transport. */
    public synchronized int buffered() {
        return buffer.size();
    }

    /** The most messages this buffer ever held at once (never more than {@link #capacity()}). */
    public synchronized int highWater() {
        return highWater;
    }

    /** Messages the policy discarded from this buffer. */
    public synchronized long dropped() {
        return dropped;
    }

    /** Messages handed to the transport. */
    public long written() {
        return written;
    }

    /** The sequence number of the last message handed to the transport; -1 before the first. */
    public long lastWritten() {
        return lastWritten;
    }

    public synchronized boolean isOpen() {
        return state != CLOSED;
    }

    /** Why it ended; {@code null} while open. */
    public synchronized @Nullable CloseReason closeReason() {
        return closeReason;
    }

    /**
     * Appends one message, applying the policy when the buffer is full, and submits the drain if none is under way.
     * Never blocks on the network.
     */
    void offer(LiveMessage message) {
        if (append(message, keyOf(message))) {
            schedule();
        }
    }

    /**
     * {@link LiveChannel#publish}'s append: as {@link #offer}, but a drain it owes is not started here.
     *
     * @return {@code true} if the caller owes this subscriber its drain: {@link #drainInline()} once the caller
     *     holds no monitor (when {@link #writesInline()}), else {@link #schedule()}
     */
    boolean offerForPublish(LiveMessage message) {
        return append(message, keyOf(message));
    }

    /**
     * Appends a message of this subscriber's own ({@link #send}) under a key no other message has: it shares its
     * sequence number with the last published message, which may still be buffered and must not be replaced.
     */
    void offerOwn(LiveMessage message) {
        if (append(message, new Object())) {
            schedule();
        }
    }

    /** Whether a drain a publish owes may run on the publishing thread ({@link #drainInline()}). */
    boolean writesInline() {
        return writesInline;
    }

    private Object keyOf(LiveMessage message) {
        return message.snapshot() ? new Object()
                : policy == OverflowPolicy.COALESCE_BY_KEY && message.key() != null ? message.key()
                : Long.valueOf(message.sequence());
    }

    /** Appends under the policy; {@code true} if this moved the subscriber from idle to draining (a drain is owed). */
    private boolean append(LiveMessage message, Object key) {
        boolean owed = false;
        boolean overflow = false;
        synchronized (this) {
            if (state == CLOSED) {
                return false;
            }
            if (policy == OverflowPolicy.COALESCE_BY_KEY && buffer.remove(key) != null) {
                dropped++;
                statistics.coalesced();
                statistics.buffered(-1);
            } else if (buffer.size() >= capacity) {
                if (policy == OverflowPolicy.DISCONNECT) {
                    overflow = true;
                } else {
                    dropOldest();
                }
            }
            if (!overflow) {
                owed = enqueue(key, message);
            }
        }
        if (overflow) {
            statistics.slowDisconnect();
            close(CloseReason.TOO_SLOW);
        }
        return owed;
    }

    /**
     * Buffers {@code message} under {@code key} (the buffer has room) and counts it.
     *
     * @return {@code true} if this moved the subscriber from idle to draining (a drain is owed)
     */
    @GuardedBy("this")
    private boolean enqueue(Object key, LiveMessage message) {
        buffer.put(key, message);
        statistics.buffered(1);
        highWater = Math.max(highWater, buffer.size());
        if (state == IDLE) {
            state = DRAINING;
            return true;
        }
        return false;
    }

    /**
     * The channel ended with a last message ({@link LiveChannel#end}): it goes after what is buffered (the
     * oldest buffered message gives it room when the buffer is full), and the subscriber ends
     * ({@link CloseReason#CHANNEL_CLOSED}) once its drain has handed everything to the transport, or as soon
     * as the transport cannot take more without waiting (a client that stopped reading is not waited for).
     */
    void finish(LiveMessage last) {
        boolean schedule = false;
        boolean stalled = false;
        synchronized (this) {
            if (state == CLOSED || finishing) {
                return;
            }
            finishing = true;
            if (state == WAITING) {
                stalled = true;
            } else {
                if (buffer.size() >= capacity) {
                    dropOldest();
                }
                schedule = enqueue(new Object(), last);
            }
        }
        if (stalled) {
            close(CloseReason.CHANNEL_CLOSED);
        } else if (schedule) {
            schedule();
        }
    }

    /** Discards the oldest buffered message, counted as dropped. */
    @GuardedBy("this")
    private void dropOldest() {
        Iterator<LiveMessage> oldest = buffer.values().iterator();
        oldest.next();
        oldest.remove();
        dropped++;
        statistics.droppedOldest();
        statistics.buffered(-1);
    }

    /**
     * Ends this subscriber once: empties the buffer, leaves the channel, closes the transport off the caller.
     *
     * @return whether this call ended it ({@code false}: it had ended already)
     */
    boolean close(CloseReason reason) {
        boolean drainOwnsTransport;
        synchronized (this) {
            if (state == CLOSED) {
                return false;
            }
            // A drain scheduled, running or owed inline may be inside a write right now (or about to be): the
            // transport is written by one thread at a time, so that drain closes it when it stops (stopped()),
            // never a second thread; an inline drain, too, hands that close to the executor.
            drainOwnsTransport = state == DRAINING;
            closeByDrain = drainOwnsTransport;
            state = CLOSED;
            closeReason = reason;
            statistics.buffered(-buffer.size());
            buffer.clear();
        }
        channel.remove(this);
        statistics.unsubscribed();
        if (!drainOwnsTransport) {
            closeTransport(reason);
        }
        return true;
    }

    /** After a drain stopped: closes the transport if {@link #close} left that to the drain. */
    private void stopped() {
        CloseReason reason;
        synchronized (this) {
            if (state != CLOSED || !closeByDrain) {
                return;
            }
            closeByDrain = false;
            reason = closeReason;
        }
        if (reason != null) {
            closeTransport(reason);
        }
    }

    private void closeTransport(CloseReason reason) {
        Runnable closing = () -> {
            try {
                transport.close(reason);
            } catch (RuntimeException ignored) {
                // The connection is being torn down anyway; a failing close has nobody left to tell.
            }
        };
        try {
            executor.execute(closing); // a close may write (a close frame): never on the publisher's thread
        } catch (RejectedExecutionException shutDown) {
            closing.run();
        }
    }

    /**
     * Runs the drain a publish owes ({@link #offerForPublish}) on this thread: one batch, then the rest on the
     * executor as any drain would. Inside another inline drain on this thread (a transport's callback that
     * publishes), it submits instead, so inline drains never nest.
     */
    void drainInline() {
        if (IN_INLINE_DRAIN.get()) {
            schedule();
            return;
        }
        IN_INLINE_DRAIN.set(Boolean.TRUE);
        try {
            drain();
        } finally {
            IN_INLINE_DRAIN.set(Boolean.FALSE);
        }
    }

    /** Submits the drain; the state is {@link #DRAINING} already (moved by whoever owes it). */
    void schedule() {
        try {
            executor.execute(drain);
        } catch (RejectedExecutionException shutDown) {
            close(CloseReason.GONE);
            stopped(); // the drain that would have closed the transport never runs
        }
    }

    private void drain() {
        if (drainBatch()) {
            schedule(); // yield after a batch; the state stays DRAINING, so nobody else schedules meanwhile
        } else {
            stopped();
        }
    }

    /** Writes up to {@link #BATCH} messages; {@code true} to go on in a new drain, {@code false} when it stopped. */
    private boolean drainBatch() {
        for (int i = 0; i < BATCH; i++) {
            Boolean work = hasWork();
            if (work == null) {
                return false;
            }
            if (!work) {
                boolean flushed;
                try {
                    // Asked first, as before a write: the writable() that let this drain go on may be left from a
                    // "not ready" it never saw (a Servlet container's first onWritePossible, dispatched once after
                    // setWriteListener, can come before the first drain), and a Servlet stream throws from flush()
                    // while it is not ready; not ready here parks the drain until writable(), as anywhere else.
                    flushed = transport.ready() && transport.flush();
                } catch (Exception broken) {
                    gone(broken);
                    return false;
                }
                if (flushed ? idled() : parked()) {
                    endIfFinished();
                    return false;
                }
                continue;
            }
            boolean ready;
            try {
                ready = transport.ready();
            } catch (RuntimeException broken) {
                gone(broken);
                return false;
            }
            if (!ready) {
                if (parked()) {
                    endIfFinished();
                    return false;
                }
                continue;
            }
            LiveMessage next = take();
            if (next == null) {
                return false;
            }
            boolean more;
            try {
                more = transport.write(next);
            } catch (Exception broken) {
                gone(broken);
                return false;
            }
            lastWritten = next.sequence();
            written++;
            statistics.countWritten();
            if (!more && parked()) {
                endIfFinished();
                return false;
            }
        }
        return true;
    }

    /** {@code true}: a message waits; {@code false}: the buffer is empty (flush, then idle); {@code null}: closed. */
    private synchronized @Nullable Boolean hasWork() {
        if (state != DRAINING) {
            return null;
        }
        return !buffer.isEmpty();
    }

    /** Goes idle after a complete flush, unless a message arrived meanwhile (then the drain goes on). */
    private synchronized boolean idled() {
        if (state != DRAINING) {
            return true;
        }
        if (buffer.isEmpty()) {
            if (!finishing) {
                state = IDLE;
            }
            return true; // finishing: the state stays DRAINING until endIfFinished() closes
        }
        return false;
    }

    /** After the drain stopped: ends a finishing subscriber, which {@link #idled} or {@link #parked} left DRAINING. */
    private void endIfFinished() {
        boolean end;
        synchronized (this) {
            end = finishing && state == DRAINING;
        }
        if (end) {
            close(CloseReason.CHANNEL_CLOSED);
        }
    }

    private synchronized @Nullable LiveMessage take() {
        if (state != DRAINING) {
            return null;
        }
        Iterator<LiveMessage> oldest = buffer.values().iterator();
        LiveMessage next = oldest.next();
        oldest.remove();
        statistics.buffered(-1);
        return next;
    }

    /**
     * Parks the drain until {@link #writable()}; false (go on) if that was called while the drain ran,
     * which closes the race between the transport's "not ready" and its callback arriving before this.
     */
    private synchronized boolean parked() {
        if (state != DRAINING) {
            return true;
        }
        if (writableSignal) {
            writableSignal = false;
            return false;
        }
        if (!finishing) {
            state = WAITING; // finishing: a transport that cannot take more now is not waited for
        }
        return true;
    }
}
