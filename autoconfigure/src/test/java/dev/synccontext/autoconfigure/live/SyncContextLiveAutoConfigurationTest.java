package dev.synccontext.autoconfigure.live;

import dev.synccontext.spring.live.LaneLimit;
import dev.synccontext.spring.live.LiveChannels;
import dev.synccontext.spring.live.LiveEncoder;
import dev.synccontext.spring.live.LiveFlux;
import dev.synccontext.spring.live.LiveSse;
import dev.synccontext.spring.live.LiveStomp;
import dev.synccontext.spring.live.LiveWebSocket;
import dev.synccontext.spring.live.TooManyLanesWebExceptionHandler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.autoconfigure.AllParts;
import dev.synccontext.live.CloseReason;
import dev.synccontext.live.LiveChannel;
import dev.synccontext.live.LiveMessage;
import dev.synccontext.live.LiveTransport;
import dev.synccontext.live.OverflowPolicy;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CopyOnWriteArrayList;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;

/** Which live-channel beans exist in which application, and the settings they take. */
class SyncContextLiveAutoConfigurationTest {

    private static final AutoConfigurations LIVE = AutoConfigurations.of(SyncContextLiveAutoConfiguration.class);

    @Test
    void aServletApplicationGetsChannelsAndTheSseAndWebSocketTransportsButNoStompWithoutABroker() {
        AllParts.servlet().withConfiguration(LIVE).run(context -> {
            assertThat(context).hasSingleBean(LiveChannels.class).hasSingleBean(LiveSse.class)
                    .hasSingleBean(LiveWebSocket.class).hasSingleBean(LiveEncoder.class).doesNotHaveBean(LiveStomp.class)
                    .doesNotHaveBean(LiveFlux.class);
        });
    }

    @Test
    void aReactiveApplicationGetsTheWebFluxEventStreamAndNoServletOne() {
        AllParts.reactive().withConfiguration(LIVE).run(context -> {
            assertThat(context).hasSingleBean(LiveChannels.class).hasSingleBean(LiveFlux.class)
                    .hasSingleBean(LiveEncoder.class).doesNotHaveBean(LiveSse.class);
        });
    }

    @Test
    void aNonWebApplicationGetsChannelsOnly() {
        AllParts.plain().withConfiguration(LIVE).run(context -> {
            assertThat(context).hasSingleBean(LiveChannels.class).doesNotHaveBean(LiveSse.class)
                    .doesNotHaveBean(LiveFlux.class);
        });
    }

    @Test
    void thePropertiesReachTheChannelsAndBadValuesFailStartupNamingTheProperty() {
        AllParts.plain().withConfiguration(LIVE).withPropertyValues("synccontext.live.policy=disconnect",
                "synccontext.live.buffer-capacity=5").run(context -> {
                    assertThat(context.getBean(LiveChannels.class).open("x", () -> "s").policy())
                            .isEqualTo(OverflowPolicy.DISCONNECT);
                });
        AllParts.plain().withConfiguration(LIVE).withPropertyValues("synccontext.live.buffer-capacity=0")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("synccontext.live.buffer-capacity"));
    }

    @Test
    void inlineWritesReachTheChannelsOnlyWhenTheirPropertyIsSet() {
        AllParts.plain().withConfiguration(LIVE).withPropertyValues("synccontext.live.inline-writes=true").run(context -> {
            Queue<Runnable> tasks = new ArrayDeque<>(); // an executor the test runs by hand
            LiveChannel live = context.getBean(LiveChannels.class).builder("x", LiveChannels.DEFAULT_SCOPE)
                    .executor(tasks::add).build(() -> "s");
            NonBlockingTab tab = new NonBlockingTab();
            live.subscribe(tab);
            tasks.remove().run(); // the snapshot's drain: the subscriber is idle after it
            live.publish("e", 1);
            assertThat(tab.writers).as("written inside publish, nothing queued").hasSize(2);
            assertThat(tasks).isEmpty();
        });
        assertThat(new LiveProperties().isInlineWrites()).as("off by default").isFalse();
    }

    /** Says it never blocks; records the thread of each write. */
    private static final class NonBlockingTab implements LiveTransport {

        final List<String> writers = new CopyOnWriteArrayList<>();

        @Override
        public boolean writesWithoutBlocking() {
            return true;
        }

        @Override
        public boolean ready() {
            return true;
        }

        @Override
        public boolean write(LiveMessage message) {
            writers.add(Thread.currentThread().getName());
            return true;
        }

        @Override
        public void close(CloseReason reason) {
        }
    }

    @Test
    void aZeroOrNegativeTimeoutFailsStartupNamingThePropertyInsteadOfMeaningNone() {
        for (String property : new String[] { "synccontext.live.sse-timeout", "synccontext.live.send-timeout" }) {
            for (String value : new String[] { "0", "0s", "-1s" }) {
                AllParts.plain().withConfiguration(LIVE).withPropertyValues(property + "=" + value)
                        .run(context -> assertThat(context).as(property + "=" + value).hasFailed().getFailure().rootCause()
                                .hasMessageContaining(property).hasMessageContaining("must be positive"));
            }
        }
    }

    @Test
    void theLaneCapIsSixteenByDefaultSetByItsPropertyAndAtLeastOne() {
        AllParts.plain().withConfiguration(LIVE).run(context -> assertThat(context.getBean(LaneLimit.class).max())
                .isEqualTo(LaneLimit.DEFAULT_MAX).isEqualTo(new LiveProperties().getMaxLanesPerStream()).isEqualTo(16));
        AllParts.plain().withConfiguration(LIVE).withPropertyValues("synccontext.live.max-lanes-per-stream=3")
                .run(context -> assertThat(context.getBean(LaneLimit.class).max()).isEqualTo(3));
        AllParts.plain().withConfiguration(LIVE).withPropertyValues("synccontext.live.max-lanes-per-stream=0")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("synccontext.live.max-lanes-per-stream"));
    }

    @Test
    void aReactiveApplicationAnswersTooManyLanesWith400() {
        AllParts.reactive().withConfiguration(LIVE).run(context ->
                assertThat(context).hasSingleBean(TooManyLanesWebExceptionHandler.class));
        AllParts.servlet().withConfiguration(LIVE).run(context ->
                assertThat(context).doesNotHaveBean(TooManyLanesWebExceptionHandler.class));
    }

    @Test
    void theMetersExistPerScopeFromStartup() {
        AllParts.plain().withConfiguration(LIVE).withBean(SimpleMeterRegistry.class).run(context -> {
            SimpleMeterRegistry registry = context.getBean(SimpleMeterRegistry.class);
            context.getBeansOfType(io.micrometer.core.instrument.binder.MeterBinder.class).values()
                    .forEach(binder -> binder.bindTo(registry));
            assertThat(registry.find("synccontext.live.buffered").tag("scope", "session").gauge()).isNotNull();
            assertThat(registry.find("synccontext.live.dropped").tag("scope", "websocket").functionCounters()).hasSize(2);
            assertThat(registry.find("synccontext.live.lanes.refused").functionCounter()).isNotNull();
        });
    }
}
