package dev.synccontext.spring.live;

import dev.synccontext.live.CloseReason;
import dev.synccontext.live.LiveSubscriber;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * One event stream (one connection of a tab) that carries several live channels, each as a lane: a
 * {@link LaneTransport} that its channel's {@link LiveSubscriber} drives like any transport.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>Independent lanes.</b> Each lane is a subscriber of its own channel: its own bounded buffer, policy,
 *       replay and sequence. A lane resumes from its own part of {@code Last-Event-ID} ({@link LaneIds}); one
 *       lane past its replay gets a snapshot while the others replay what they missed.</li>
 *   <li><b>Order per lane, none across lanes.</b> A lane's events go out in its channel's order. Events of two
 *       lanes go out in the order their drains took this stream's lock, which says nothing about the order in
 *       which their contexts published them.</li>
 *   <li><b>Every id says every lane's position.</b> An event's id is computed when its bytes are written, under
 *       the lock, from each open lane's last written position: the id a browser echoes is consistent with what
 *       it received.</li>
 *   <li><b>Pressure reaches every lane.</b> While the response cannot take more, every lane's {@link #ready()}
 *       answers {@code false} and its drain parks; the response's next "writable" wakes them all. No thread waits
 *       for the client; a stalled tab costs each channel this lane's bounded buffer, never the channel's
 *       publisher or its other subscribers.</li>
 *   <li><b>A lane ends alone, the stream ends once.</b> A lane whose channel closes, or whose subscriber the
 *       application cancels, gets one last event ({@code {"closed":"channel-closed"}}, whose id no longer names
 *       the lane, so a reconnect does not ask for it) and leaves; the
 *       others go on. The stream ends when its last lane has left, when a lane is too slow (its client reconnects
 *       and every lane resumes), when a write fails or the client goes away, or on shutdown: then with one
 *       {@code going-away} event for the whole stream.</li>
 * </ul>
 *
 * <h2>How</h2>
 * The output (a Servlet stream, a WebFlux sink) is touched only under {@link #lock}, which no network call ever
 * waits in: writes are non-blocking. A lane's drain asks {@link #ready()} and then writes, but another lane may
 * take the last room in between; a write that finds the output not ready therefore keeps its frame in
 * {@link #held} and answers {@code false}, so its drain parks. Every later touch of the output writes the held
 * frames first, in order. At most one frame per lane is held (its drain parks until the next "writable"), plus
 * the closing frame of each lane that left, so the stream holds at most two frames per lane besides the lanes'
 * own buffers.
 */
final class SharedStream {

    private final Object lock = new Object();
    private final LiveEncoder encoder;
    private final List<LaneTransport> lanes;
    private final Map<String, String> resumed;
    private final AtomicInteger refusals = new AtomicInteger();

    /* guarded by lock */
    private @Nullable StreamOutput output;
    /* guarded by lock */
    private final ArrayDeque<Frame> held = new ArrayDeque<>();
    /** Each open lane's last written position: what every event's id says. */
    /* guarded by lock */
    private final Map<String, String> positions = new HashMap<>();
    /* guarded by lock */
    private int openLanes;
    /* guarded by lock */
    private boolean ended;
    /* guarded by lock */
    private boolean wroteAny;
    /** Written since the last flush. */
    /* guarded by lock */
    private boolean dirty;

    /** An event to write: a lane's message ({@code position} its channel's id) or its closing event (none). */
    private record Frame(LaneTransport lane, @Nullable String position, String data) {
    }

    /** A stream for {@code names} (distinct, checked), resuming each from its part of {@code lastEventId}. */
    SharedStream(LiveEncoder encoder, List<String> names, @Nullable String lastEventId) {
        LaneIds.checkNames(names);
        this.encoder = encoder;
        this.resumed = LaneIds.parse(lastEventId);
        List<LaneTransport> created = new ArrayList<>(names.size());
        for (String name : names) {
            created.add(new LaneTransport(this, name, resumed.get(name)));
        }
        this.lanes = List.copyOf(created);
        synchronized (lock) {
            openLanes = lanes.size();
            for (LaneTransport lane : lanes) {
                String position = resumed.get(lane.name());
                if (position != null) {
                    positions.put(lane.name(), position); // until the lane writes: a reconnect resumes it again
                }
            }
        }
    }

    /** Sets the output, before the output's callbacks are registered and before any lane subscribes. */
    void use(StreamOutput output) {
        synchronized (lock) {
            this.output = output;
        }
    }

    LiveEncoder encoder() {
        return encoder;
    }

    /**
     * Subscribes every lane inside its own context (inline when idle). A lane whose context refuses, or whose
     * channel cannot be reached, leaves as a closed lane; when every lane was refused the output fails with the
     * first cause. The answer completes once every lane's subscription ran: the subscribers of the lanes that
     * subscribed, by name.
     */
    CompletableFuture<Map<String, LiveSubscriber>> subscribe(List<LiveLane> toSubscribe) {
        Map<String, LiveSubscriber> subscribed = new ConcurrentHashMap<>();
        CompletableFuture<?>[] all = new CompletableFuture<?>[toSubscribe.size()];
        for (int i = 0; i < toSubscribe.size(); i++) {
            LiveLane lane = toSubscribe.get(i);
            LaneTransport transport = lanes.get(i);
            CompletableFuture<LiveSubscriber> subscription;
            try {
                subscription = lane.context().invokeAsync(() -> lane.channel().get().subscribe(transport));
            } catch (RuntimeException refused) {
                subscription = CompletableFuture.failedFuture(refused);
            }
            all[i] = subscription.handle((subscriber, failure) -> {
                if (failure != null) {
                    refused(transport, failure instanceof CompletionException wrapped && wrapped.getCause() != null
                            ? wrapped.getCause() : failure);
                } else {
                    subscribed.put(lane.name(), subscriber);
                }
                return null;
            });
        }
        return CompletableFuture.allOf(all).thenApply(done -> Collections.unmodifiableMap(subscribed));
    }

    // ---- a lane's drain: one thread per lane at a time, any number of lanes at once ----

    boolean ready() {
        synchronized (lock) {
            checkOpen();
            try {
                return writeHeld();
            } catch (Exception broken) {
                throw new IllegalStateException("the event stream broke: " + broken, broken);
            }
        }
    }

    boolean write(LaneTransport lane, String position, String data) throws Exception {
        synchronized (lock) {
            checkOpen();
            held.add(new Frame(lane, position, data));
            return writeHeld();
        }
    }

    boolean flush() throws Exception {
        synchronized (lock) {
            checkOpen();
            return writeHeld() && flushIfDirty();
        }
    }

    /**
     * The lane's subscriber ended ({@link LaneTransport#close}): the lane leaves with its closing event, or the
     * whole stream ends (see the class comment for which reasons end it).
     */
    void closed(LaneTransport lane, CloseReason reason) {
        boolean endStream = reason == CloseReason.GONE || reason == CloseReason.TOO_SLOW
                || reason == CloseReason.GOING_AWAY;
        leave(lane, endStream, reason == CloseReason.GOING_AWAY, reason.name().toLowerCase().replace('_', '-'), null);
    }

    private void refused(LaneTransport lane, Throwable cause) {
        refusals.incrementAndGet();
        leave(lane, false, false, "refused", cause);
    }

    private void leave(LaneTransport lane, boolean endStream, boolean goingAway, String why,
            @Nullable Throwable refusal) {
        boolean end = endStream;
        boolean fail = false;
        synchronized (lock) {
            if (lane.left || ended) {
                lane.left = true;
                return;
            }
            lane.left = true;
            openLanes--;
            positions.remove(lane.name());
            if (openLanes == 0) {
                end = true;
                fail = refusal != null && !wroteAny && refusals.get() == lanes.size();
            } else if (!end) {
                held.add(new Frame(lane, null, "{\"closed\":\"" + why + "\"}"));
                try {
                    if (writeHeld()) {
                        flushIfDirty();
                    }
                } catch (Exception broken) {
                    end = true;
                }
            }
        }
        if (fail && refusal != null) {
            failStream(refusal);
        } else if (end) {
            end(goingAway);
        }
    }

    // ---- the output's callbacks: they only signal ----

    /** The response can take more: the held frames go out, then every lane's drain is woken. */
    void writable() {
        boolean broken = false;
        synchronized (lock) {
            if (ended) {
                return;
            }
            try {
                if (writeHeld()) {
                    flushIfDirty();
                }
            } catch (Exception failed) {
                broken = true;
            }
        }
        if (broken) {
            end(false);
            return;
        }
        for (LaneTransport lane : lanes) {
            lane.signalWritable();
        }
    }

    /** The response ended (the client went away, a timeout, a completion): every lane's subscriber ends. */
    void ended() {
        synchronized (lock) {
            ended = true;
            held.clear();
        }
        for (LaneTransport lane : lanes) {
            lane.signalGone();
        }
    }

    boolean hasEnded() {
        synchronized (lock) {
            return ended;
        }
    }

    // ---- called under the lock ----

    private void checkOpen() {
        if (ended) {
            throw new IllegalStateException("the event stream has ended");
        }
    }

    /** Writes the held frames while the output takes them; whether all went out and the output takes more. */
    private boolean writeHeld() throws Exception {
        StreamOutput out = output();
        while (!held.isEmpty()) {
            if (!out.ready()) {
                return false;
            }
            Frame frame = held.poll();
            if (frame.position() != null && !frame.lane().left) {
                positions.put(frame.lane().name(), frame.position());
            }
            out.write(id(), frame.lane().name(), frame.data());
            wroteAny = true;
            dirty = true;
        }
        return out.ready();
    }

    /** Every open lane's position, in the lanes' order. */
    private String id() {
        Map<String, String> inOrder = new LinkedHashMap<>();
        for (LaneTransport lane : lanes) {
            String position = positions.get(lane.name());
            if (position != null) {
                inOrder.put(lane.name(), position);
            }
        }
        return LaneIds.format(inOrder);
    }

    private boolean flushIfDirty() throws Exception {
        if (!dirty) {
            return true;
        }
        dirty = false;
        return output().flush();
    }

    private StreamOutput output() {
        StreamOutput out = output;
        if (out == null) {
            throw new IllegalStateException("the shared stream has no output yet");
        }
        return out;
    }

    // ---- ending: the output is ended outside the lock, once, after no write can start ----

    private void end(boolean goingAway) {
        StreamOutput out;
        synchronized (lock) {
            if (ended) {
                return;
            }
            ended = true; // no write starts after this, so the output is ours alone below
            held.clear();
            out = output;
        }
        if (out != null) {
            out.end(goingAway);
        }
        for (LaneTransport lane : lanes) {
            lane.signalGone();
        }
    }

    private void failStream(Throwable cause) {
        StreamOutput out;
        synchronized (lock) {
            if (ended) {
                return;
            }
            ended = true;
            out = output;
        }
        if (out != null) {
            out.fail(cause);
        }
    }
}
