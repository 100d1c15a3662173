package dev.synccontext.spring.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names and tags the observation of a queued callback. Declare a bean of this type to replace
 * {@link DefaultQueuedCallbackObservationConvention} (extend it to add a tag and keep the others).
 */
public interface QueuedCallbackObservationConvention extends ObservationConvention<QueuedCallbackContext> {

    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof QueuedCallbackContext;
    }
}
