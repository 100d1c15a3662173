package dev.synccontext.spring.observation;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * The observation a queued callback records ({@link QueuedCallbackObservations}). Its tags use the
 * vocabulary of the library's meters ({@code synccontext.tasks}: {@code scope}, {@code path},
 * {@code outcome}), so a trace's span and a dashboard's series name the same things.
 */
public enum QueuedCallbackObservationDocumentation implements ObservationDocumentation {

    /**
     * The run of one queued callback, on the thread that drained it, as a child of the observation that was
     * current on the thread that queued it. Its duration is the run (the synchronous part, for
     * {@code invokeAsyncStage}); the time it waited in the queue before is in
     * {@link QueuedCallbackContext#getQueueWaitNanos()} and in the {@code synccontext.queue.wait} key.
     */
    QUEUED_CALLBACK {
        @Override
        public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
            return DefaultQueuedCallbackObservationConvention.class;
        }

        @Override
        public KeyName[] getLowCardinalityKeyNames() {
            return LowCardinalityKeys.values();
        }

        @Override
        public KeyName[] getHighCardinalityKeyNames() {
            return HighCardinalityKeys.values();
        }
    };

    /** Tags with a few values each: safe on meters. */
    public enum LowCardinalityKeys implements KeyName {

        /** The kind of context ({@code session}, {@code request}, {@code websocket}, a registry's scope); {@code none} if it has none. */
        SCOPE {
            @Override
            public String asString() {
                return "scope";
            }
        },

        /** How the callback reached its thread: always {@code queued} (inline callbacks record nothing). */
        PATH {
            @Override
            public String asString() {
                return "path";
            }
        },

        /** How the run ended: {@code success}, {@code failure} or {@code cancelled}. */
        OUTCOME {
            @Override
            public String asString() {
                return "outcome";
            }
        }
    }

    /** Tags with a value per context or per call: for traces, never for meters. */
    public enum HighCardinalityKeys implements KeyName {

        /** The context's name ({@code session-17}; never a session id). */
        CONTEXT {
            @Override
            public String asString() {
                return "synccontext.context";
            }
        },

        /** How long the callback waited in the queue before it started, in milliseconds ({@code 12.345}). */
        QUEUE_WAIT {
            @Override
            public String asString() {
                return "synccontext.queue.wait";
            }
        }
    }
}
