package dev.synccontext.spring.live;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/** Binds {@code synccontext.live.lanes.refused}: event streams refused for asking more lanes than the cap. */
public final class LaneLimitMetrics implements MeterBinder {

    private final LaneLimit limit;

    public LaneLimitMetrics(LaneLimit limit) {
        this.limit = limit;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        FunctionCounter.builder("synccontext.live.lanes.refused", limit, LaneLimit::refused)
                .description("Event streams refused for asking more lanes than synccontext.live.max-lanes-per-stream")
                .register(registry);
    }
}
