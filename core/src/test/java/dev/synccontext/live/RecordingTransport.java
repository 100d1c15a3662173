package dev.synccontext.live;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * A transport for tests: records what it is given, can stall (never ready, like a client that stopped
 * reading), and fails the test's assertions when two writes overlap.
 */
class RecordingTransport implements LiveTransport {

    final List<LiveMessage> written = new CopyOnWriteArrayList<>();
    final AtomicReference<@Nullable CloseReason> closed = new AtomicReference<>();
    final CountDownLatch closedLatch = new CountDownLatch(1);
    final AtomicInteger overlaps = new AtomicInteger();
    final List<String> writerThreads = new CopyOnWriteArrayList<>();
    private final AtomicInteger inWrite = new AtomicInteger();
    private final @Nullable String lastEventId;
    volatile boolean stalled;
    /** How long each write spins, to widen the window in which a second thread could touch the transport. */
    volatile long writeNanos;
    /** Writes that came after {@link #close}: a transport must never be written once it was closed. */
    final AtomicInteger writesAfterClose = new AtomicInteger();
    volatile @Nullable LiveSubscriber subscriber;
    /** What {@link #writesWithoutBlocking()} answers; read when the subscriber is made, so set it before subscribing. */
    volatile boolean nonBlocking;

    RecordingTransport(@Nullable String lastEventId) {
        this.lastEventId = lastEventId;
    }

    RecordingTransport() {
        this(null);
    }

    static RecordingTransport stalled() {
        RecordingTransport transport = new RecordingTransport();
        transport.stalled = true;
        return transport;
    }

    @Override
    public boolean ready() {
        return !stalled;
    }

    @Override
    public boolean writesWithoutBlocking() {
        return nonBlocking;
    }

    @Override
    public boolean write(LiveMessage message) {
        if (inWrite.incrementAndGet() != 1) {
            overlaps.incrementAndGet();
        }
        if (closed.get() != null) {
            writesAfterClose.incrementAndGet();
        }
        writerThreads.add(Thread.currentThread().getName());
        written.add(message);
        for (long end = System.nanoTime() + writeNanos; System.nanoTime() < end; ) {
            Thread.onSpinWait();
        }
        inWrite.decrementAndGet();
        return true;
    }

    /** Takes part in the overlap check: a close while a write is under way is an overlap too (one writer). */
    @Override
    public void close(CloseReason reason) {
        if (inWrite.incrementAndGet() != 1) {
            overlaps.incrementAndGet();
        }
        closed.compareAndSet(null, reason);
        inWrite.decrementAndGet();
        closedLatch.countDown();
    }

    @Override
    public @Nullable String lastEventId() {
        return lastEventId;
    }

    @Override
    public void attach(LiveSubscriber subscriber) {
        this.subscriber = subscriber;
    }

    /** The client reads again. */
    void resume() {
        stalled = false;
        LiveSubscriber attached = subscriber;
        if (attached != null) {
            attached.writable();
        }
    }

    List<Long> sequences() {
        return written.stream().map(LiveMessage::sequence).toList();
    }
}
