package dev.synccontext.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.live.LiveChannel;
import dev.synccontext.live.LiveMessage;
import dev.synccontext.live.LiveTransport;
import dev.synccontext.live.CloseReason;
import dev.synccontext.live.OverflowPolicy;
import dev.synccontext.live.LiveStatistics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

/** The live-channel meters are per scope and count what the channels did. */
class LiveChannelMetricsTest {

    private static final LiveTransport STALLED = new LiveTransport() {
        @Override
        public boolean ready() {
            return false;
        }

        @Override
        public boolean write(LiveMessage message) {
            throw new AssertionError("a stalled transport is never written");
        }

        @Override
        public void close(CloseReason reason) {
        }
    };

    @Test
    void theMetersCountDropsBufferedMessagesAndSnapshotsPerScope() {
        LiveStatistics statistics = new LiveStatistics("session");
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new LiveChannelMetrics(statistics).bindTo(registry);
        LiveChannel live = LiveChannel.builder("board").policy(OverflowPolicy.DROP_OLDEST).bufferCapacity(3)
                .statistics(statistics).build(() -> "s");
        live.subscribe(STALLED);
        for (int i = 0; i < 10; i++) {
            live.publish("board", i);
        }
        assertThat(registry.get("synccontext.live.buffered").tag("scope", "session").gauge().value()).isEqualTo(3);
        assertThat(registry.get("synccontext.live.subscribers").gauge().value()).isEqualTo(1);
        assertThat(registry.get("synccontext.live.dropped").tag("policy", "drop-oldest").functionCounter().count())
                .isEqualTo(8);
        assertThat(registry.get("synccontext.live.dropped").tag("policy", "coalesce-by-key").functionCounter().count())
                .isZero();
        assertThat(registry.get("synccontext.live.published").functionCounter().count()).isEqualTo(10);
        assertThat(registry.get("synccontext.live.reconnects").tag("outcome", "snapshot").functionCounter().count())
                .isEqualTo(1);
    }
}
