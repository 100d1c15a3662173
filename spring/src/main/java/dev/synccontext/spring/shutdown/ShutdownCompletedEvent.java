package dev.synccontext.spring.shutdown;

import dev.synccontext.registry.ShutdownDrain;
import org.springframework.context.ApplicationEvent;

/**
 * Published once the shutdown drain has finished, still inside the closing context (before any bean is
 * destroyed): what it did, for a listener that exports or prints it.
 */
public final class ShutdownCompletedEvent extends ApplicationEvent {

    private static final long serialVersionUID = 1L;

    private final transient ShutdownDrain.Report report;

    public ShutdownCompletedEvent(Object source, ShutdownDrain.Report report) {
        super(source);
        this.report = report;
    }

    public ShutdownDrain.Report report() {
        return report;
    }
}
