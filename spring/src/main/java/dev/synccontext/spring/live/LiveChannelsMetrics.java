package dev.synccontext.spring.live;

import dev.synccontext.micrometer.LiveChannelMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/** Binds the live-channel meters of every scope, including scopes that appear after startup. */
public final class LiveChannelsMetrics implements MeterBinder {

    private final LiveChannels channels;

    public LiveChannelsMetrics(LiveChannels channels) {
        this.channels = channels;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        channels.onScope(statistics -> new LiveChannelMetrics(statistics).bindTo(registry));
    }
}
