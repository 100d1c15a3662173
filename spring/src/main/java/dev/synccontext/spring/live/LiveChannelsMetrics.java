package dev.synccontext.spring.live;

import dev.synccontext.micrometer.LiveChannelMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Binds the live-channel meters of every scope, including scopes that appear after startup.
 *
 * @param channels the channels of every scope, told of each scope as it appears
 */
public record LiveChannelsMetrics(LiveChannels channels) implements MeterBinder {

    @Override
    public void bindTo(MeterRegistry registry) {
        channels.onScope(statistics -> new LiveChannelMetrics(statistics).bindTo(registry));
    }
}
