package dev.synccontext.spring.propagation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.testing.OnRandomPort;
import brave.handler.MutableSpan;
import org.junit.jupiter.api.Test;

/**
 * {@link QueuedMvcBodyPropagationHttpTest} with {@code synccontext.observations.enabled}: the queued body runs
 * inside its own span, a child of the request's span in the same trace, tagged as the meters are; the MDC
 * holds that span's ids while the body runs, and the next callback on the drain thread sees only its own.
 */
@OnRandomPort(classes = TracedApp.class,
        properties = { "synccontext.executor=application-task-executor", "synccontext.observations.enabled=true" })
class QueuedMvcBodyObservationHttpTest extends QueuedMvcBodyPropagationHttpTest {

    @Override
    @Test
    void aQueuedBodyRunsWithTheRequestsTraceIdsAndUserAndLeavesNoneOnItsThread() throws Exception {
        Queued queued = queuedBodyOnTheRequestsTrace();
        String[] seen = queued.seen();
        assertThat(seen[2]).as("spanId in the body's MDC: the queued callback's own span")
                .isNotEqualTo(queued.requestSpan()).isEqualTo(seen[4]);
        assertThat(seen[3]).as("the tracer's current trace in the body").isEqualTo(queued.requestTrace());
        assertThat(seen[6]).as("the Authentication in the body").isEqualTo("alice");
        await().atMost(WAIT).until(() -> finishedSpans.stream().anyMatch(s -> seen[4].equals(s.id())));
        MutableSpan span = finishedSpans.stream().filter(s -> seen[4].equals(s.id())).findFirst().orElseThrow();
        assertThat(span.name()).isEqualTo("queued session");
        assertThat(span.parentId()).as("the queued span's parent: the request's span").isEqualTo(queued.requestSpan());
        assertThat(span.tags()).containsEntry("scope", "session").containsEntry("path", "queued")
                .containsEntry("outcome", "success").containsEntry("synccontext.context", queued.context().name())
                .containsKey("synccontext.queue.wait");
        String[] after = nextOnTheDrainThread(queued.context());
        assertThat(after[6]).as("the user seen by the next callback on that thread").isEqualTo("null");
        assertThat(after[1]).as("the next callback's trace: its own, not the request's")
                .isNotEqualTo(queued.requestTrace()).isEqualTo(after[3]);
        assertThat(after[2]).as("the next callback's span in the MDC: its own").isEqualTo(after[4]);
        assertThat(after[5]).as("the next callback's observation: its own, with no parent")
                .startsWith("{name=synccontext.queued").contains("parentObservation=null");
    }
}
