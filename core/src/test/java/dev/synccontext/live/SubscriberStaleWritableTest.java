package dev.synccontext.live;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * A {@link LiveSubscriber#writable()} that no "not ready" of the drain asked for (the Servlet container's first
 * {@code onWritePossible}, which it dispatches once after {@code setWriteListener}, arriving before the first
 * drain ran) never makes the drain touch a transport that is not ready: the drain asks {@link LiveTransport#ready()}
 * before every write and every flush. A Servlet output stream throws {@code IllegalStateException} from
 * {@code write} and {@code flush} while {@code isReady()} is false; before this rule such a left-over signal let
 * the drain flush right after a write that filled the socket, and the subscriber ended ({@link CloseReason#GONE})
 * although its client was only slow ({@code SseScaleAndResumeTest} lost a stalled tab that way under load).
 * Deterministic: the drains run on the test's thread, in the order the test gives.
 */
class SubscriberStaleWritableTest {

    /** The drains, run by the test when it says so. */
    private final Queue<Runnable> tasks = new ArrayDeque<>();

    private void runTasks() {
        for (Runnable task; (task = tasks.poll()) != null; ) {
            task.run();
        }
    }

    @Test
    void aWritableSignalLeftFromBeforeTheFirstDrainNeverMakesItFlushATransportThatIsNotReady() {
        LiveChannel live = LiveChannel.builder("board").policy(OverflowPolicy.DROP_OLDEST).bufferCapacity(8)
                .executor(tasks::add).build(() -> "s");
        ServletLikeTransport tab = new ServletLikeTransport();
        LiveSubscriber subscriber = live.subscribe(tab); // the snapshot is buffered; its drain is queued
        subscriber.writable(); // the container's first onWritePossible, before that drain ran
        runTasks();
        assertThat(tab.frames).as("the snapshot went out and was flushed").containsExactly(0L);
        assertThat(tab.flushed).isEqualTo(1);

        tab.fillOnNextWrite = true; // the next frame fills the socket: isReady() turns false after it
        live.publish("board", 1);
        runTasks();
        assertThat(tab.refused).as("write or flush called while the stream was not ready: %s", tab.refused).isEmpty();
        assertThat(subscriber.isOpen()).as("a slow client is waited for, not ended (%s)", subscriber.closeReason())
                .isTrue();
        assertThat(tab.frames).containsExactly(0L, 1L);

        tab.drained(); // the client read: the container calls onWritePossible
        runTasks();
        assertThat(tab.flushed).as("the frame the full socket held back is flushed once it may be").isEqualTo(2);
        assertThat(tab.refused).isEmpty();
        assertThat(subscriber.isOpen()).isTrue();
    }

    /**
     * The rules of a Servlet {@code ServletOutputStream} in non-blocking mode (Tomcat's {@code CoyoteOutputStream}):
     * {@code write} and {@code flush} throw {@code IllegalStateException} while {@code isReady()} is false, and a
     * false {@code isReady()} obliges the container to call {@code onWritePossible} later.
     */
    private static final class ServletLikeTransport implements LiveTransport {

        final List<Long> frames = new ArrayList<>();
        final List<String> refused = new ArrayList<>();
        int flushed;
        boolean fillOnNextWrite;
        private boolean ready = true;
        private boolean dirty;
        private @Nullable LiveSubscriber subscriber;

        @Override
        public void attach(LiveSubscriber subscriber) {
            this.subscriber = subscriber;
        }

        @Override
        public boolean ready() {
            return ready;
        }

        @Override
        public boolean write(LiveMessage message) {
            notReadyIsAnError("write of " + message.sequence());
            frames.add(message.sequence());
            dirty = true;
            if (fillOnNextWrite) {
                fillOnNextWrite = false;
                ready = false;
            }
            return ready;
        }

        @Override
        public boolean flush() {
            notReadyIsAnError("flush");
            if (dirty) {
                dirty = false;
                flushed++;
            }
            return ready;
        }

        private void notReadyIsAnError(String what) {
            if (!ready) {
                refused.add(what);
                throw new IllegalStateException("(Servlet) " + what + " while isReady() is false");
            }
        }

        /** The socket took what it held: ready again, and the container's onWritePossible. */
        void drained() {
            ready = true;
            LiveSubscriber attached = subscriber;
            if (attached != null) {
                attached.writable();
            }
        }

        @Override
        public void close(CloseReason reason) {
        }
    }
}
