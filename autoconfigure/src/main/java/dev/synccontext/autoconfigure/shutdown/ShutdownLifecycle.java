package dev.synccontext.autoconfigure.shutdown;

import dev.synccontext.spring.shutdown.ShutdownCompletedEvent;

import dev.synccontext.registry.ShutdownDrain;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanNameAware;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ApplicationListener;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.ContextClosedEvent;

/**
 * Runs the {@link ShutdownDrain} when the application context closes (SIGTERM), before the web server's
 * graceful shutdown and before Spring's own WebSocket and message-broker handlers stop.
 *
 * <h2>Order</h2>
 * Lifecycle beans stop from the highest phase down. This one is in {@link SmartLifecycle#DEFAULT_PHASE}
 * ({@code Integer.MAX_VALUE}), above Boot's {@code WebServerGracefulShutdownLifecycle}
 * ({@code SMART_LIFECYCLE_PHASE} = {@code DEFAULT_PHASE - 1024} in Boot 4.0.7), so the server still serves
 * while the drain runs and its graceful phase finds the streams already ended, instead of waiting
 * {@code spring.lifecycle.timeout-per-shutdown-phase} for them. Spring's
 * {@code SubProtocolWebSocketHandler} and broker handlers share the highest phase (and close every
 * WebSocket session at once when they stop); on start this bean declares that it depends on every other
 * lifecycle bean of its phase, and Spring stops a bean's dependents first, so the drain runs before them.
 * {@link #stop()} blocks until the drain is done (at most {@code synccontext.shutdown-timeout}), which holds
 * the rest of the phase back.
 *
 * <h2>Only when the context closes</h2>
 * A drain cannot be undone (the registry never accepts again), so {@link #stop()} drains only once its
 * context has published {@link ContextClosedEvent} (which Spring does before it stops the lifecycle beans).
 * A plain {@code stop()} and {@code start()} of a running context, such as Spring's test framework pausing
 * a cached context between test classes, leaves everything as it was. A context that closes while stopped
 * (a paused test context at the JVM's exit) gets no {@code stop()} from Spring, so the drain runs on its
 * {@link ContextClosedEvent} instead: otherwise its open live streams would hold the web server's graceful
 * shutdown for its whole timeout.
 */
final class ShutdownLifecycle implements SmartLifecycle, BeanNameAware, ApplicationContextAware,
        ApplicationListener<ContextClosedEvent> {

    private static final Log LOG = LogFactory.getLog(ShutdownLifecycle.class);

    private final ShutdownDrain drain;
    private final ApplicationEventPublisher events;
    private final ConfigurableListableBeanFactory beanFactory;
    private String beanName = ShutdownLifecycle.class.getName();
    private volatile boolean running;
    private volatile boolean started;
    private volatile boolean closing;
    private @Nullable ApplicationContext context;

    ShutdownLifecycle(ShutdownDrain drain, ApplicationEventPublisher events,
            ConfigurableListableBeanFactory beanFactory) {
        this.drain = drain;
        this.events = events;
        this.beanFactory = beanFactory;
    }

    @Override
    public void setBeanName(String name) {
        this.beanName = name;
    }

    @Override
    public void setApplicationContext(ApplicationContext context) {
        this.context = context;
    }

    @Override
    public void onApplicationEvent(ContextClosedEvent event) {
        if (event.getApplicationContext() != context) { // a child context's close reaches us too
            return;
        }
        closing = true;
        if (started && !running) {
            // Stopped before it closed (context.stop(), or Spring's test framework pausing a cached context):
            // Spring stops no bean that is not running, so the drain runs here. Without it the live streams
            // stay open and hold the web server's graceful shutdown for its whole timeout.
            runDrain();
        }
    }

    @Override
    public int getPhase() {
        return DEFAULT_PHASE;
    }

    @Override
    public void start() {
        stopBeforePhaseMates();
        started = true;
        running = true;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public void stop() {
        if (!running) {
            return;
        }
        running = false;
        if (closing) { // else stopped, not closing: it may start again, with everything still accepting
            runDrain();
        }
    }

    private void runDrain() {
        try {
            ShutdownDrain.Report report = drain.run(
                    () -> AvailabilityChangeEvent.publish(events, this, ReadinessState.REFUSING_TRAFFIC));
            LOG.info("Shutdown drain: " + report);
            events.publishEvent(new ShutdownCompletedEvent(this, report));
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            LOG.warn("Shutdown drain interrupted: busy contexts were force-closed and live subscribers told to go"
                    + " away at once");
        }
    }

    /** Makes this bean a dependent of every other lifecycle singleton of its phase: Spring stops it first. */
    private void stopBeforePhaseMates() {
        for (String name : beanFactory.getBeanNamesForType(SmartLifecycle.class, false, false)) {
            if (name.equals(beanName) || !beanFactory.containsSingleton(name)) {
                continue;
            }
            if (beanFactory.getSingleton(name) instanceof SmartLifecycle mate && mate.getPhase() >= getPhase()) {
                beanFactory.registerDependentBean(name, beanName);
            }
        }
    }
}
