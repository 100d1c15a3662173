package dev.synccontext.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.testing.Race;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link LiveSubscriber#send}: one message to one subscriber, through its own buffer, in order with what the
 * channel publishes, and never a second writer on its transport.
 */
class SubscriberSendTest {

    private final LiveDrains drains = new LiveDrains(2);

    @AfterEach
    void stop() throws InterruptedException {
        drains.close();
    }

    @Test
    void aSentMessageReachesOnlyItsSubscriberBetweenThePublishesAroundItAndIsNeverReplayed() {
        LiveChannel live = drains.channel(OverflowPolicy.DROP_OLDEST, 64).build(() -> "s");
        RecordingTransport asking = RecordingTransport.stalled();
        RecordingTransport other = new RecordingTransport();
        LiveSubscriber subscriber = live.subscribe(asking);
        live.subscribe(other);
        live.publish("board", "b1");
        live.publish("board", "b2");
        assertThat(subscriber.send("error", "refused")).as("buffered").isTrue();
        live.publish("board", "b3");

        asking.resume();
        await().atMost(Duration.ofSeconds(10)).until(() -> asking.written.size() == 5 && other.written.size() == 4);
        assertThat(asking.written).extracting(LiveMessage::data).as("after what was published before it, before"
                + " what was published after it").containsExactly("s", "b1", "b2", "refused", "b3");
        LiveMessage refusal = asking.written.get(3);
        assertThat(refusal.event()).isEqualTo("error");
        assertThat(refusal.snapshot()).isFalse();
        assertThat(refusal.id()).as("the sequence of the last published message").isEqualTo(live.epoch() + "-2");
        assertThat(other.written).extracting(LiveMessage::data).as("the other subscriber never sees it")
                .containsExactly("s", "b1", "b2", "b3");

        RecordingTransport reconnect = new RecordingTransport(refusal.id());
        live.subscribe(reconnect);
        await().atMost(Duration.ofSeconds(10)).until(() -> reconnect.written.size() == 1);
        assertThat(reconnect.written).extracting(LiveMessage::data).as("resumes right after it: only b3, no replay"
                + " of the refusal").containsExactly("b3");
    }

    @Test
    void aSentMessageNeverReplacesTheBufferedMessageWhoseSequenceItShares() {
        for (OverflowPolicy policy : OverflowPolicy.values()) {
            LiveChannel live = drains.channel(policy, 8).build(() -> "s");
            RecordingTransport tab = RecordingTransport.stalled();
            LiveSubscriber subscriber = live.subscribe(tab);
            live.publish("board", "board", "keyed");
            live.publish("plain", "unkeyed");
            subscriber.send("error", "first");
            subscriber.send("error", "second");
            assertThat(subscriber.buffered()).as("%s: snapshot, two published, two sent", policy).isEqualTo(5);
            assertThat(subscriber.dropped()).as(policy.name()).isZero();
            tab.resume();
            await().atMost(Duration.ofSeconds(10)).until(() -> tab.written.size() == 5);
            assertThat(tab.written).extracting(LiveMessage::data).as(policy.name())
                    .containsExactly("s", "keyed", "unkeyed", "first", "second");
        }
    }

    @Test
    void nothingIsSentAfterTheChannelEndedOrTheSubscriberLeftAndTheCallerIsTold() {
        LiveChannel live = drains.channel(OverflowPolicy.COALESCE_BY_KEY, 8).build(() -> "s");
        RecordingTransport cancelled = new RecordingTransport();
        LiveSubscriber leaving = live.subscribe(cancelled);
        leaving.cancel();
        assertThat(leaving.send("error", "late")).as("a cancelled subscriber").isFalse();

        RecordingTransport tab = new RecordingTransport();
        LiveSubscriber subscriber = live.subscribe(tab);
        live.end("ended", "bye");
        assertThat(subscriber.send("error", "after the end")).as("an ended channel").isFalse();
        await().atMost(Duration.ofSeconds(10)).until(() -> tab.closed.get() != null);
        assertThat(tab.written).extracting(LiveMessage::data).as("the end stays the last message")
                .containsExactly("s", "bye");
    }

    @Test
    void aSendThatOverflowsADisconnectingBufferEndsTheSubscriberAndSaysSo() {
        LiveChannel live = drains.channel(OverflowPolicy.DISCONNECT, 2).build(() -> "s");
        RecordingTransport tab = RecordingTransport.stalled();
        LiveSubscriber subscriber = live.subscribe(tab);
        assertThat(subscriber.send("error", "fits")).isTrue();
        assertThat(subscriber.send("error", "overflows")).isFalse();
        assertThat(subscriber.closeReason()).isEqualTo(CloseReason.TOO_SLOW);
    }

    /**
     * Four threads send to one subscriber while a fifth publishes: nothing is lost, each sender's messages and
     * the published ones arrive in their own order, and the transport never sees two writes at once.
     */
    @Test
    void concurrentSendsAndPublishesAreWrittenOneAtATimeEachInItsOrderNothingLost() throws Exception {
        int perThread = 2_000;
        LiveChannel live = drains.channel(OverflowPolicy.DROP_OLDEST, 5 * perThread + 1).build(() -> "s");
        RecordingTransport tab = new RecordingTransport();
        LiveSubscriber subscriber = live.subscribe(tab);
        List<Callable<Void>> racers = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            String sender = "t" + t;
            racers.add(() -> {
                for (int i = 0; i < perThread; i++) {
                    assertThat(subscriber.send(sender, i)).isTrue();
                }
                return null;
            });
        }
        racers.add(() -> {
            for (int i = 0; i < perThread; i++) {
                live.publish("board", i);
            }
            return null;
        });
        Race.run(Duration.ofSeconds(60), racers);
        await().atMost(Duration.ofSeconds(30)).until(() -> tab.written.size() == 5 * perThread + 1);
        assertThat(tab.overlaps).as("writes that overlapped").hasValue(0);
        assertThat(subscriber.dropped()).isZero();
        for (String event : List.of("t0", "t1", "t2", "t3", "board")) {
            assertThat(tab.written.stream().filter(m -> m.event().equals(event)).map(LiveMessage::data).toList())
                    .as("%s's messages, in its order", event)
                    .containsExactlyElementsOf(java.util.stream.IntStream.range(0, perThread).boxed().toList());
        }
        List<Long> sequences = tab.sequences();
        for (int i = 1; i < sequences.size(); i++) {
            assertThat(sequences.get(i)).as("sequence numbers never go back (message %d)", i)
                    .isGreaterThanOrEqualTo(sequences.get(i - 1));
        }
    }
}
