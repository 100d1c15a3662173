package dev.synccontext.live;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.ManualExecutor;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * A publish to an idle subscriber whose transport writes without blocking writes on the publishing thread, one batch
 * at most, and leaves everything else (the rest, a transport that is not ready, the close) to the executor. The
 * executor only queues ({@link ManualExecutor}): what is written before the test runs it was written inline.
 */
class InlineWriteTest {

    private final ManualExecutor executor = new ManualExecutor();
    private final LiveStatistics statistics = new LiveStatistics("test");

    private LiveChannel.Builder channel(OverflowPolicy policy, int capacity) {
        return LiveChannel.builder("board").policy(policy).bufferCapacity(capacity).replayCapacity(16)
                .executor(executor).statistics(statistics).inlineWrites(true);
    }

    /** Subscribes {@code tab} and lets the executor write its snapshot, so the subscriber is idle. */
    private LiveSubscriber idle(LiveChannel live, RecordingTransport tab) {
        LiveSubscriber subscriber = live.subscribe(tab);
        executor.runUntilIdle();
        assertThat(tab.sequences()).as("the snapshot").containsExactly(0L);
        return subscriber;
    }

    @Test
    void aPublishToAnIdleNonBlockingSubscriberIsWrittenBeforeTheExecutorRunsAnything() {
        LiveChannel live = channel(OverflowPolicy.DROP_OLDEST, 8).build(() -> "s");
        NonBlockingTransport tab = new NonBlockingTransport();
        LiveSubscriber subscriber = idle(live, tab);
        int submitted = executor.submitted();

        live.publish("board", 1);

        assertThat(tab.sequences()).as("written inside publish").containsExactly(0L, 1L);
        assertThat(tab.writerThreads.get(1)).as("on the publishing thread").isEqualTo(Thread.currentThread().getName());
        assertThat(tab.flushes).as("flushed once the buffer ran empty").isEqualTo(2);
        assertThat(executor.submitted()).as("nothing handed to the executor").isEqualTo(submitted);
        assertThat(subscriber.buffered()).isZero();
        assertThat(subscriber.lastWritten()).isEqualTo(1L);
        assertThat(statistics.written()).isEqualTo(2);
        assertThat(statistics.buffered()).isZero();

        live.publish("board", 2);
        assertThat(tab.sequences()).as("idle again after the inline drain: the next one is inline too")
                .containsExactly(0L, 1L, 2L);
        assertThat(executor.pending()).isZero();
    }

    @Test
    void aTransportThatMayBlockIsStillWrittenOnTheExecutor() {
        LiveChannel live = channel(OverflowPolicy.DROP_OLDEST, 8).build(() -> "s");
        RecordingTransport tab = new RecordingTransport();
        idle(live, tab);

        live.publish("board", 1);

        assertThat(tab.sequences()).as("not written by publish").containsExactly(0L);
        assertThat(executor.pending()).as("its drain submitted").isEqualTo(1);
        executor.runUntilIdle();
        assertThat(tab.sequences()).containsExactly(0L, 1L);
    }

    @Test
    void inlineWritesAreOffUnlessTheChannelAsksForThem() {
        LiveChannel live = LiveChannel.builder("board").executor(executor).build(() -> "s");
        NonBlockingTransport tab = new NonBlockingTransport();
        idle(live, tab);

        live.publish("board", 1);

        assertThat(tab.sequences()).containsExactly(0L);
        assertThat(executor.pending()).isEqualTo(1);
    }

    @Test
    void aSubscriberWhoseDrainIsQueuedIsNotWrittenInlineAndOrderHolds() {
        LiveChannel live = channel(OverflowPolicy.DROP_OLDEST, 8).build(() -> "s");
        NonBlockingTransport tab = new NonBlockingTransport();
        live.subscribe(tab); // the snapshot's drain is queued, not run

        live.publish("board", 1);
        live.publish("board", 2);

        assertThat(tab.written).as("the queued drain owns the transport").isEmpty();
        assertThat(executor.pending()).isEqualTo(1);
        executor.runUntilIdle();
        assertThat(tab.sequences()).containsExactly(0L, 1L, 2L);
    }

    @Test
    void onePublishWritesInlineForOneSubscriberAndSubmitsTheOthersFirst() {
        LiveChannel live = channel(OverflowPolicy.DROP_OLDEST, 8).build(() -> "s");
        NonBlockingTransport first = new NonBlockingTransport();
        NonBlockingTransport second = new NonBlockingTransport();
        NonBlockingTransport third = new NonBlockingTransport();
        idle(live, first);
        idle(live, second);
        idle(live, third);
        first.onWrite = message -> assertThat(executor.pending())
                .as("the other subscribers' drains are submitted before the inline write").isEqualTo(2);

        live.publish("board", 1);

        assertThat(first.sequences()).containsExactly(0L, 1L);
        assertThat(second.sequences()).containsExactly(0L);
        assertThat(third.sequences()).containsExactly(0L);
        assertThat(executor.runUntilIdle()).isEqualTo(2);
        assertThat(second.sequences()).containsExactly(0L, 1L);
        assertThat(third.sequences()).containsExactly(0L, 1L);
    }

    @Test
    void anInlineDrainWritesOneBatchAndLeavesTheRestToTheExecutor() {
        LiveChannel live = channel(OverflowPolicy.DROP_OLDEST, 256).build(() -> "s");
        NonBlockingTransport tab = new NonBlockingTransport();
        idle(live, tab);
        tab.onWrite = message -> {
            if (message.sequence() < 100) {
                live.publish("board", message.sequence() + 1); // a callback that publishes: appended, same drain
            }
        };

        live.publish("board", 1);

        assertThat(tab.written).as("one batch on the publishing thread").hasSize(1 + 64);
        assertThat(tab.flushes).as("no flush: the buffer never ran empty").isEqualTo(1);
        assertThat(executor.pending()).as("the rest resubmitted").isEqualTo(1);
        executor.runUntilIdle();
        assertThat(tab.sequences()).as("every message once, in order").hasSize(101).isSorted().doesNotHaveDuplicates();
        assertThat(tab.overlaps).hasValue(0);
    }

    @Test
    void aPublishFromInsideAnInlineDrainSubmitsItsDrainInsteadOfNesting() {
        LiveChannel other = channel(OverflowPolicy.DROP_OLDEST, 8).build(() -> "o");
        NonBlockingTransport otherTab = new NonBlockingTransport();
        idle(other, otherTab);
        LiveChannel live = channel(OverflowPolicy.DROP_OLDEST, 8).build(() -> "s");
        NonBlockingTransport tab = new NonBlockingTransport();
        idle(live, tab);
        tab.onWrite = message -> other.publish("echo", message.sequence());

        live.publish("board", 1);

        assertThat(tab.sequences()).containsExactly(0L, 1L);
        assertThat(otherTab.sequences()).as("the nested publish did not write inline").containsExactly(0L);
        assertThat(executor.pending()).isEqualTo(1);
        executor.runUntilIdle();
        assertThat(otherTab.sequences()).containsExactly(0L, 1L);

        tab.onWrite = null;
        other.publish("echo", 2);
        assertThat(otherTab.sequences()).as("inline again once the outer drain has returned").containsExactly(0L, 1L, 2L);
    }

    @Test
    void aTransportNotReadyAfterAnInlineWriteParksAndWritableResumesOnTheExecutor() {
        LiveChannel live = channel(OverflowPolicy.DROP_OLDEST, 8).build(() -> "s");
        NonBlockingTransport tab = new NonBlockingTransport();
        LiveSubscriber subscriber = idle(live, tab);
        tab.fullAfterNextWrite = true;

        live.publish("board", 1);
        live.publish("board", 2);

        assertThat(tab.sequences()).as("the first written inline, the second waits for the client")
                .containsExactly(0L, 1L);
        assertThat(tab.flushes).as("no flush while not ready").isEqualTo(1);
        assertThat(executor.pending()).as("no task while stalled").isZero();
        assertThat(subscriber.buffered()).isEqualTo(1);

        tab.resume();
        assertThat(tab.sequences()).as("writable() never writes on the caller").containsExactly(0L, 1L);
        assertThat(executor.pending()).isEqualTo(1);
        executor.runUntilIdle();
        assertThat(tab.sequences()).containsExactly(0L, 1L, 2L);
        assertThat(subscriber.isOpen()).isTrue();
    }

    @Test
    void anOverflowDuringAnInlineDrainClosesTheTransportOnTheExecutorNeverInsidePublish() {
        LiveChannel live = channel(OverflowPolicy.DISCONNECT, 2).build(() -> "s");
        NonBlockingTransport tab = new NonBlockingTransport();
        LiveSubscriber subscriber = idle(live, tab);
        tab.onWrite = message -> {
            for (int i = 0; i < 3; i++) {
                live.publish("board", i); // the third overflows a buffer of 2 while the drain is in its write
            }
        };

        live.publish("board", 1);

        assertThat(subscriber.closeReason()).isEqualTo(CloseReason.TOO_SLOW);
        assertThat(tab.closed).as("the close is not on the publishing thread").hasNullValue();
        assertThat(tab.sequences()).as("nothing written after the overflow").containsExactly(0L, 1L);
        assertThat(statistics.slowDisconnects()).isEqualTo(1);
        assertThat(statistics.buffered()).isZero();
        executor.runUntilIdle();
        assertThat(tab.closed).hasValue(CloseReason.TOO_SLOW);
        assertThat(tab.writesAfterClose).hasValue(0);
        assertThat(tab.overlaps).hasValue(0);
    }

    @Test
    void aCloseDuringAnInlineWriteIsLeftToTheDrainWhichHandsItToTheExecutor() {
        LiveChannel live = channel(OverflowPolicy.DROP_OLDEST, 8).build(() -> "s");
        NonBlockingTransport tab = new NonBlockingTransport();
        LiveSubscriber subscriber = idle(live, tab);
        tab.onWrite = message -> {
            live.publish("board", 2); // buffered behind the write under way
            subscriber.cancel(); // the application unsubscribes while the inline drain is in the transport
            assertThat(tab.closed).as("not closed under the write").hasNullValue();
        };

        live.publish("board", 1);

        assertThat(subscriber.isOpen()).isFalse();
        assertThat(tab.sequences()).as("the drain stopped: the buffered message is dropped").containsExactly(0L, 1L);
        assertThat(tab.closed).as("the close waits for the executor").hasNullValue();
        assertThat(executor.pending()).isEqualTo(1);
        executor.runUntilIdle();
        assertThat(tab.closed).hasValue(CloseReason.CANCELLED);
        assertThat(tab.writesAfterClose).hasValue(0);
        assertThat(tab.overlaps).hasValue(0);
        assertThat(live.subscribers()).isEmpty();
    }

    @Test
    void aWriteThatFailsInlineEndsTheSubscriberAndClosesOnTheExecutor() {
        LiveChannel live = channel(OverflowPolicy.DROP_OLDEST, 8).build(() -> "s");
        NonBlockingTransport tab = new NonBlockingTransport();
        LiveSubscriber subscriber = idle(live, tab);
        tab.onWrite = message -> {
            throw new IllegalStateException("broken pipe");
        };

        live.publish("board", 1); // does not throw: the failure is the subscriber's

        assertThat(subscriber.closeReason()).isEqualTo(CloseReason.GONE);
        assertThat(tab.closed).hasNullValue();
        executor.runUntilIdle();
        assertThat(tab.closed).hasValue(CloseReason.GONE);
    }

    @Test
    void anInlineDrainRejectedOnResubmitEndsTheSubscriber() {
        LiveChannel live = channel(OverflowPolicy.DROP_OLDEST, 256).build(() -> "s");
        NonBlockingTransport tab = new NonBlockingTransport();
        LiveSubscriber subscriber = idle(live, tab);
        tab.onWrite = message -> {
            if (message.sequence() < 70) {
                live.publish("board", message.sequence() + 1);
            }
        };
        executor.reject(true); // shutting down: the second batch cannot be submitted

        live.publish("board", 1);

        assertThat(tab.written).hasSize(1 + 64);
        assertThat(subscriber.closeReason()).isEqualTo(CloseReason.GONE);
        assertThat(tab.closed).as("closed on the caller when the executor refuses").hasValue(CloseReason.GONE);
    }

    /**
     * Says it writes without blocking; can run a hook inside each write (a callback that publishes, cancels or
     * fails), turn not ready after a write, and counts flushes.
     */
    private static final class NonBlockingTransport extends RecordingTransport {

        volatile @Nullable Consumer<LiveMessage> onWrite;
        volatile boolean fullAfterNextWrite;
        volatile int flushes;

        NonBlockingTransport() {
            nonBlocking = true;
        }

        @Override
        public boolean write(LiveMessage message) {
            super.write(message);
            Consumer<LiveMessage> hook = onWrite;
            if (hook != null) {
                hook.accept(message);
            }
            if (fullAfterNextWrite) {
                fullAfterNextWrite = false;
                stalled = true;
            }
            return !stalled;
        }

        @Override
        public boolean flush() {
            flushes++;
            return !stalled;
        }
    }
}
