package dev.synccontext.spring.observation;

import dev.synccontext.CallbackDecorator;
import dev.synccontext.CallbackOutcome;
import dev.synccontext.RendererSyncContext;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import org.jspecify.annotations.Nullable;

/**
 * Records each queued callback as an {@link QueuedCallbackObservationDocumentation#QUEUED_CALLBACK}
 * observation: when it is queued (on the submitting thread) it notes the time and the current observation;
 * when it runs it starts an observation whose parent is that one, opens its scope around the callback (so
 * the callback's own observations and log lines belong to it), and stops it with the outcome. Callbacks that
 * run on the caller's thread (inline, nested, {@code send}) are never decorated, so they record nothing.
 *
 * <p>Why the run is the observation and the wait an attribute of it: an observation started when the callback
 * is queued would have to be stopped on every path where a queued callback never runs (a context that refuses
 * it after it was decorated, {@code closeNow}, an executor that refuses the drain), and those paths drop the
 * decorated callback without telling its decorator; an observation never stopped keeps its long task timer
 * sample and its span forever. The wait is measured from the same two instants and travels in the context
 * ({@link QueuedCallbackContext#getQueueWaitNanos()}); in a trace, the gap between the submitter's span and
 * this one's start shows it too.
 *
 * <p>Place it innermost among decorators (lowest order), inside context propagation: the observation scope
 * it opens must close before the propagated thread-locals (the MDC the tracer also writes) are restored.
 * With a no-op registry it returns callbacks as they are. Thread-safe.
 */
public final class QueuedCallbackObservations implements CallbackDecorator {

    private static final DefaultQueuedCallbackObservationConvention DEFAULT =
            new DefaultQueuedCallbackObservationConvention();

    private final ObservationRegistry registry;
    private final @Nullable QueuedCallbackObservationConvention convention;

    public QueuedCallbackObservations(ObservationRegistry registry) {
        this(registry, null);
    }

    /** With {@code convention} instead of the default one (null: the default). */
    public QueuedCallbackObservations(ObservationRegistry registry,
            @Nullable QueuedCallbackObservationConvention convention) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.convention = convention;
    }

    @Override
    public Runnable decorate(Runnable callback) {
        if (registry.isNoop()) {
            return callback;
        }
        return new ObservedRunnable(this, registry.getCurrentObservation(), System.nanoTime(), callback);
    }

    @Override
    public <T> Callable<T> decorate(Callable<T> callback) {
        if (registry.isNoop()) {
            return callback;
        }
        return new ObservedCallable<>(this, registry.getCurrentObservation(), System.nanoTime(), callback);
    }

    /** Starts the observation of a callback that is about to run, with its scope open. */
    private Started start(@Nullable Observation parent, long queuedAt) {
        long wait = System.nanoTime() - queuedAt;
        RendererSyncContext context = RendererSyncContext.current().orElse(null);
        QueuedCallbackContext observed = context == null ? new QueuedCallbackContext("none", null, wait)
                : new QueuedCallbackContext(context.name(), context.scope(), wait);
        Observation observation = QueuedCallbackObservationDocumentation.QUEUED_CALLBACK
                .observation(convention, DEFAULT, () -> observed, registry)
                .parentObservation(parent)
                .start();
        return new Started(observation, observed, observation.openScope());
    }

    /** Closes the scope, then stops the observation with how the callback ended. */
    private static void stop(Started started, @Nullable Throwable failure) {
        started.scope.close();
        if (failure == null) {
            started.context.setOutcome(CallbackOutcome.SUCCESS);
        } else {
            started.context.setOutcome(failure instanceof CancellationException ? CallbackOutcome.CANCELLED
                    : CallbackOutcome.FAILURE);
            started.observation.error(failure);
        }
        started.observation.stop();
    }

    @Override
    public String toString() {
        return "QueuedCallbackObservations[" + registry + "]";
    }

    private record Started(Observation observation, QueuedCallbackContext context, Observation.Scope scope) {
    }

    /** A decorated callback: what its observation needs from where it was queued; it prints as the callback. */
    private abstract static class Observed<C> {

        final QueuedCallbackObservations observations;
        final @Nullable Observation parent; // current where it was queued
        final long queuedAt;
        final C callback;

        Observed(QueuedCallbackObservations observations, @Nullable Observation parent, long queuedAt, C callback) {
            this.observations = observations;
            this.parent = parent;
            this.queuedAt = queuedAt;
            this.callback = callback;
        }

        @Override
        public String toString() {
            return callback.toString();
        }
    }

    private static final class ObservedRunnable extends Observed<Runnable> implements Runnable {

        ObservedRunnable(QueuedCallbackObservations observations, @Nullable Observation parent, long queuedAt,
                Runnable callback) {
            super(observations, parent, queuedAt, callback);
        }

        @Override
        public void run() {
            Started started = observations.start(parent, queuedAt);
            Throwable failure = null;
            try {
                callback.run();
            } catch (Throwable thrown) {
                failure = thrown;
                throw thrown;
            } finally {
                stop(started, failure);
            }
        }
    }

    private static final class ObservedCallable<T> extends Observed<Callable<T>> implements Callable<T> {

        ObservedCallable(QueuedCallbackObservations observations, @Nullable Observation parent, long queuedAt,
                Callable<T> callback) {
            super(observations, parent, queuedAt, callback);
        }

        @Override
        public T call() throws Exception {
            Started started = observations.start(parent, queuedAt);
            Throwable failure = null;
            try {
                return callback.call();
            } catch (Throwable thrown) {
                failure = thrown;
                throw thrown;
            } finally {
                stop(started, failure);
            }
        }
    }
}
