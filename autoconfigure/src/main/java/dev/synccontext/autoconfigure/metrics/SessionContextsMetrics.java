package dev.synccontext.autoconfigure.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import dev.synccontext.spring.session.SessionContexts;

/**
 * Meters of this node's session contexts, one series each (never one per session):
 * {@code synccontext.session.handoffs} (sessions taken over from another node: failovers),
 * {@code synccontext.session.splits} (sessions live on two nodes at once: no session affinity), and
 * {@code synccontext.session.released} tagged {@code cause} = {@code ended} or {@code idle}.
 * In Prometheus: {@code synccontext_session_handoffs_total}, {@code synccontext_session_splits_total},
 * {@code synccontext_session_released_total}. Open session contexts are {@code synccontext_contexts{scope="session"}}.
 */
record SessionContextsMetrics(SessionContexts sessions) implements MeterBinder {

    @Override
    public void bindTo(MeterRegistry registry) {
        FunctionCounter.builder("synccontext.session.handoffs", sessions, SessionContexts::handoffs)
                .description("Sessions this node took over from another node while it had no context for them (failovers)")
                .register(registry);
        FunctionCounter.builder("synccontext.session.splits", sessions, SessionContexts::splits)
                .description("Sessions that came from another node while their context here was still open: callbacks"
                        + " can overlap across nodes; configure session affinity")
                .register(registry);
        FunctionCounter.builder("synccontext.session.released", sessions, SessionContexts::endedReleases)
                .tag("cause", "ended").description("Session contexts released on this node").register(registry);
        FunctionCounter.builder("synccontext.session.released", sessions, SessionContexts::idleEvictions)
                .tag("cause", "idle").description("Session contexts released on this node").register(registry);
    }
}
