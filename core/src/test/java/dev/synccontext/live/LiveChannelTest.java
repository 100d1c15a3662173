package dev.synccontext.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The rules of one channel and its subscribers, with in-memory transports (no network, no Spring). */
class LiveChannelTest {

    private final LiveDrains drains = new LiveDrains(2);

    @AfterEach
    void stop() throws InterruptedException {
        drains.close();
    }

    @Test
    void aSubscriberGetsASnapshotThenEveryMessageInOrderWrittenOffThePublishersThread() {
        LiveChannel live = drains.channel(OverflowPolicy.DROP_OLDEST, 1000).build(() -> "state-0");
        RecordingTransport tab = new RecordingTransport();
        live.subscribe(tab);
        for (int i = 1; i <= 500; i++) {
            live.publish("board", "state-" + i);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> tab.written.size() == 501);
        assertThat(tab.written.get(0).snapshot()).isTrue();
        assertThat(tab.written.get(0).data()).isEqualTo("state-0");
        assertThat(tab.sequences()).as("snapshot at 0, then 1..500 in order").containsExactlyElementsOf(
                java.util.stream.LongStream.rangeClosed(0, 500).boxed().toList());
        assertThat(tab.writerThreads).allMatch(name -> name.equals("live-drain"));
        assertThat(tab.overlaps).hasValue(0);
    }

    @Test
    void aStalledSubscriberCostsItsBoundedBufferAndEveryDropIsCounted() {
        LiveChannel live = drains.channel(OverflowPolicy.DROP_OLDEST, 8).build(() -> "s");
        RecordingTransport stalled = RecordingTransport.stalled();
        LiveSubscriber subscriber = live.subscribe(stalled);
        publishUpTo(live, 10_000);
        assertThat(subscriber.highWater()).isEqualTo(8);
        assertThat(subscriber.buffered()).isEqualTo(8);
        assertThat(subscriber.dropped()).as("snapshot + 10,000 published, 8 kept").isEqualTo(10_001 - 8);
        assertThat(drains.statistics.dropped(OverflowPolicy.DROP_OLDEST)).isEqualTo(10_001 - 8);
        assertThat(drains.statistics.buffered()).isEqualTo(8);

        stalled.resume();
        await().atMost(Duration.ofSeconds(10)).until(() -> stalled.written.size() == 8);
        assertThat(stalled.sequences()).as("the newest 8, in order").containsExactly(
                9_993L, 9_994L, 9_995L, 9_996L, 9_997L, 9_998L, 9_999L, 10_000L);
        assertThat(drains.statistics.buffered()).isZero();
    }

    @Test
    void coalesceByKeyKeepsTheLatestValuePerKeyAndKeepsSequenceNumbersIncreasing() {
        LiveChannel live = drains.channel(OverflowPolicy.COALESCE_BY_KEY, 8).build(() -> "s");
        RecordingTransport tab = RecordingTransport.stalled();
        LiveSubscriber subscriber = live.subscribe(tab);
        for (int i = 1; i <= 100; i++) {
            live.publish("cell", "a", "a" + i);
            live.publish("cell", "b", "b" + i);
        }
        live.publish("note", "unkeyed");
        assertThat(subscriber.buffered()).as("snapshot, a, b, the unkeyed note").isEqualTo(4);
        assertThat(subscriber.dropped()).isEqualTo(198);
        assertThat(drains.statistics.dropped(OverflowPolicy.COALESCE_BY_KEY)).isEqualTo(198);
        tab.resume();
        await().atMost(Duration.ofSeconds(10)).until(() -> tab.written.size() == 4);
        assertThat(tab.written).extracting(LiveMessage::data).containsExactly("s", "a100", "b100", "unkeyed");
        assertThat(tab.sequences()).isSorted().doesNotHaveDuplicates();
    }

    @Test
    void theDisconnectPolicyClosesASubscriberWhoseBufferIsFullAndDropsNothing() throws InterruptedException {
        LiveChannel live = drains.channel(OverflowPolicy.DISCONNECT, 4).build(() -> "s");
        RecordingTransport stalled = RecordingTransport.stalled();
        RecordingTransport healthy = new RecordingTransport();
        LiveSubscriber slow = live.subscribe(stalled);
        live.subscribe(healthy);
        for (int i = 1; i <= 10; i++) {
            live.publish("board", i);
            await().atMost(Duration.ofSeconds(10)).until(() -> healthy.written.size() == live.lastSequence() + 1);
        }
        assertThat(stalled.closedLatch.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(stalled.closed).hasValue(CloseReason.TOO_SLOW);
        assertThat(slow.isOpen()).isFalse();
        assertThat(slow.dropped()).isZero();
        assertThat(drains.statistics.slowDisconnects()).isEqualTo(1);
        assertThat(live.subscribers()).hasSize(1);
        assertThat(drains.statistics.buffered()).isZero();
    }

    @Test
    void aTransportWhoseOwnBoundGaveUpEndsItsSubscriberAsTooSlowCountedOnce() throws InterruptedException {
        LiveChannel live = drains.channel(OverflowPolicy.DROP_OLDEST, 4).build(() -> "s");
        RecordingTransport given = RecordingTransport.stalled();
        LiveSubscriber subscriber = live.subscribe(given);
        live.publish("board", 1);

        subscriber.tooSlow();
        subscriber.tooSlow(); // a second report (a second event for one session) counts nothing more

        assertThat(given.closedLatch.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(given.closed).hasValue(CloseReason.TOO_SLOW);
        assertThat(subscriber.closeReason()).isEqualTo(CloseReason.TOO_SLOW);
        assertThat(drains.statistics.slowDisconnects()).isEqualTo(1);
        assertThat(drains.statistics.subscribers()).isZero();
        assertThat(drains.statistics.buffered()).isZero();
        assertThat(live.subscribers()).isEmpty();
        subscriber.cancel();
        assertThat(subscriber.closeReason()).as("ended once").isEqualTo(CloseReason.TOO_SLOW);
    }

    @Test
    void aReconnectWithTheLastIdGetsExactlyWhatItMissed() {
        LiveChannel live = drains.channel(OverflowPolicy.DROP_OLDEST, 64).build(() -> "s");
        publishUpTo(live, 20);
        RecordingTransport back = new RecordingTransport(live.epoch() + "-12");
        live.subscribe(back);
        await().atMost(Duration.ofSeconds(10)).until(() -> back.written.size() == 8);
        assertThat(back.sequences()).containsExactly(13L, 14L, 15L, 16L, 17L, 18L, 19L, 20L);
        assertThat(back.written).noneMatch(LiveMessage::snapshot);
        assertThat(drains.statistics.resumed()).isEqualTo(1);
    }

    @Test
    void aReconnectPastTheReplayBufferFromAnotherChannelOrWithGarbageGetsOneSnapshot() {
        LiveChannel live = drains.channel(OverflowPolicy.DROP_OLDEST, 64).build(() -> "now");
        publishUpTo(live, 40); // the replay buffer keeps 25..40
        for (String id : List.of(live.epoch() + "-3", "otherepoch-39", "garbage", live.epoch() + "-x",
                live.epoch() + "-99")) {
            RecordingTransport back = new RecordingTransport(id);
            long at = live.lastSequence();
            live.subscribe(back);
            await().atMost(Duration.ofSeconds(10)).until(() -> back.written.size() == 1);
            assertThat(back.written.get(0).snapshot()).as("id %s", id).isTrue();
            assertThat(back.written.get(0).sequence()).isEqualTo(at);
            live.publish("board", 41 + back.hashCode());
            await().atMost(Duration.ofSeconds(10)).until(() -> back.written.size() == 2);
            assertThat(back.written.get(1).sequence()).as("continues after the snapshot").isEqualTo(live.lastSequence());
        }
        assertThat(drains.statistics.snapshots()).isEqualTo(5);
    }

    @Test
    void aReplayThatWouldNotFitTheSubscribersBufferBecomesASnapshotInsteadOfAGap() {
        LiveChannel live = drains.channel(OverflowPolicy.DROP_OLDEST, 4).build(() -> "now");
        publishUpTo(live, 10);
        RecordingTransport back = new RecordingTransport(live.epoch() + "-2");
        live.subscribe(back);
        await().atMost(Duration.ofSeconds(10)).until(() -> back.written.size() == 1);
        assertThat(back.written.get(0).snapshot()).isTrue();
    }

    @Test
    void aClosedChannelRefusesPublishesAndClosesNewSubscribers() throws InterruptedException {
        LiveChannel live = drains.channel(OverflowPolicy.DROP_OLDEST, 4).build(() -> "now");
        RecordingTransport open = new RecordingTransport();
        live.subscribe(open);
        live.close();
        assertThat(open.closedLatch.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(open.closed).hasValue(CloseReason.CHANNEL_CLOSED);
        assertThatThrownBy(() -> live.publish("board", 1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("board").hasMessageContaining("closed");
        RecordingTransport late = new RecordingTransport();
        assertThat(live.subscribe(late).isOpen()).isFalse();
        assertThat(drains.statistics.subscribers()).isZero();
    }

    @Test
    void aTransportThatEndedBeforeItsSubscriptionArrivedLeavesNothingBehind() {
        LiveChannel live = drains.channel(OverflowPolicy.DROP_OLDEST, 4).build(() -> "now");
        RecordingTransport gone = new RecordingTransport() {
            @Override
            public void attach(LiveSubscriber subscriber) {
                subscriber.gone(null); // as SSE does when its client left while the subscription was queued
            }
        };
        assertThat(live.subscribe(gone).isOpen()).isFalse();
        assertThat(live.subscribers()).isEmpty();
        assertThat(drains.statistics.subscribers()).isZero();
        assertThat(drains.statistics.buffered()).isZero();
    }

    @Test
    void badSettingsNameTheChannelAndTheLimit() {
        assertThatThrownBy(() -> LiveChannel.builder("board").bufferCapacity(0))
                .hasMessageContaining("board").hasMessageContaining("at least 1");
        assertThatThrownBy(() -> LiveChannel.builder("board").replayCapacity(-1))
                .hasMessageContaining("board").hasMessageContaining("0 or more");
    }

    @Test
    void endGivesEachReadingSubscriberItsBufferThenTheLastMessageThenClosesIt() throws InterruptedException {
        LiveChannel live = drains.channel(OverflowPolicy.DROP_OLDEST, 1000).build(() -> "s");
        RecordingTransport tab = new RecordingTransport();
        LiveSubscriber subscriber = live.subscribe(tab);
        publishUpTo(live, 200);
        live.end("ended", "the session ended");
        assertThat(tab.closedLatch.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(tab.closed).hasValue(CloseReason.CHANNEL_CLOSED);
        assertThat(tab.written).hasSize(202);
        assertThat(tab.written.get(201).event()).isEqualTo("ended");
        assertThat(tab.written.get(201).data()).isEqualTo("the session ended");
        assertThat(tab.sequences()).as("in order, nothing dropped").isSorted().doesNotHaveDuplicates();
        assertThat(subscriber.isOpen()).isFalse();
        assertThat(live.subscribers()).isEmpty();
        assertThatThrownBy(() -> live.publish("board", 201)).isInstanceOf(IllegalStateException.class);
        live.end("ended", "again"); // idempotent
        live.close();
        assertThat(tab.written).hasSize(202);
    }

    @Test
    void endClosesAStalledSubscriberAtOnceWithoutWaitingForIt() throws InterruptedException {
        LiveChannel live = drains.channel(OverflowPolicy.DROP_OLDEST, 4).build(() -> "s");
        RecordingTransport stalled = RecordingTransport.stalled();
        live.subscribe(stalled);
        publishUpTo(live, 100);
        await().atMost(Duration.ofSeconds(10)).until(() -> live.subscribers().get(0).buffered() == 4);
        live.end("ended", "gone");
        assertThat(stalled.closedLatch.await(10, TimeUnit.SECONDS)).as("not waited for").isTrue();
        assertThat(stalled.closed).hasValue(CloseReason.CHANNEL_CLOSED);
        assertThat(drains.statistics.buffered()).isZero();
    }

    @Test
    void theSubscribersChangedListenerHearsEveryJoinAndLeaveWhileTheChannelIsOpen() throws InterruptedException {
        java.util.concurrent.atomic.AtomicInteger changes = new java.util.concurrent.atomic.AtomicInteger();
        LiveChannel live = drains.channel(OverflowPolicy.DROP_OLDEST, 8).onSubscribersChanged(changes::incrementAndGet)
                .build(() -> "s");
        RecordingTransport first = new RecordingTransport();
        RecordingTransport second = new RecordingTransport();
        LiveSubscriber one = live.subscribe(first);
        live.subscribe(second);
        assertThat(changes).as("two joins").hasValue(2);
        one.cancel();
        assertThat(changes).as("and a leave").hasValue(3);
        one.cancel(); // already gone: no second notice
        assertThat(changes).hasValue(3);
        live.close();
        assertThat(second.closedLatch.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(changes).as("nothing once the channel is closed").hasValue(3);
    }

    /** Publishes the numbers 1 to {@code last} to the board, in order. */
    private static void publishUpTo(LiveChannel live, int last) {
        for (int i = 1; i <= last; i++) {
            live.publish("board", i);
        }
    }
}
