package dev.synccontext.spring.live;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Binds {@code synccontext.live.lanes.refused}: event streams refused for asking more lanes than the cap.
 *
 * @param limit the cap whose refusals are counted
 */
public record LaneLimitMetrics(LaneLimit limit) implements MeterBinder {

    @Override
    public void bindTo(MeterRegistry registry) {
        FunctionCounter.builder("synccontext.live.lanes.refused", limit, LaneLimit::refused)
                .description("Event streams refused for asking more lanes than synccontext.live.max-lanes-per-stream")
                .register(registry);
    }
}
