package dev.synccontext.live;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One writer per transport, also when it closes: a subscriber ended (going away, cancelled, too slow) while
 * its drain is inside a write has that drain close the transport once it stops, so the close (which may
 * write a last frame: SSE's going-away event, a WebSocket close frame) never overlaps a write and no write
 * comes after it. The premise: with the close handed to the executor at once (the code before this rule), the
 * same 2,000 rounds saw closes overlapping writes. Run also with a transport that writes without blocking, so the
 * publisher's own inline drains race the close too.
 */
class SubscriberCloseRaceTest {

    private final LiveDrains drains = new LiveDrains(4);

    @AfterEach
    void stop() throws InterruptedException {
        drains.close();
    }

    @ParameterizedTest(name = "writes without blocking: {0}")
    @ValueSource(booleans = {false, true})
    void aCloseDuringAWriteWaitsForTheDrainToStopAndNothingIsWrittenAfterIt(boolean nonBlocking) throws Exception {
        int rounds = 2_000;
        int overlaps = 0;
        int writesAfterClose = 0;
        for (int round = 0; round < rounds; round++) {
            LiveChannel live = LiveChannel.builder("board").policy(OverflowPolicy.DROP_OLDEST).bufferCapacity(64)
                    .executor(drains.executor).inlineWrites(nonBlocking).build(() -> "s");
            RecordingTransport tab = new RecordingTransport();
            tab.writeNanos = 20_000;
            tab.nonBlocking = nonBlocking;
            LiveSubscriber subscriber = live.subscribe(tab);
            Thread publisher = new Thread(() -> {
                for (int i = 1; i <= 20; i++) {
                    live.publish("board", i);
                }
            });
            publisher.start();
            for (long end = System.nanoTime() + ThreadLocalRandom.current().nextLong(100_000); System.nanoTime() < end; ) {
                Thread.onSpinWait();
            }
            if (round % 2 == 0) {
                subscriber.goAway();
            } else {
                subscriber.cancel();
            }
            publisher.join();
            assertThat(tab.closedLatch.await(10, TimeUnit.SECONDS)).as("round %d: the transport is closed", round).isTrue();
            overlaps += tab.overlaps.get();
            writesAfterClose += tab.writesAfterClose.get();
        }
        assertThat(overlaps).as("a close overlapping a write, in %d rounds", rounds).isZero();
        assertThat(writesAfterClose).as("writes after the close, in %d rounds", rounds).isZero();
    }
}
