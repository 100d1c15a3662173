package dev.synccontext.spring.handler.coroutines;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.handler.AnswerBarrier;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A suspend body's answer held back until the application's {@link AnswerBarrier}s passed on its context.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>On the context, after the last part.</b> The coroutine completes inside a callback of its context (its
 *       dispatcher's), and so does the publisher Spring made of it: the barriers run there, in that callback,
 *       before the value or the completion goes on. Nothing of the body runs in between, so what the barriers read
 *       (write-through: the durable beans) is what the body left.</li>
 *   <li><b>A signal from elsewhere hops.</b> Should a signal come on another thread, the barriers run in a callback
 *       queued on the context instead: later, but still after every part of the body.</li>
 *   <li><b>Once per value.</b> A single value: before the value, or before the completion without one. A
 *       {@code Flow}: before each element, and before the end (its last part may change state after its last
 *       element). A failure runs none: the body's failure is its answer.</li>
 *   <li>What a barrier throws is the answer instead of the value.</li>
 * </ul>
 */
final class SettledAnswers {

    private SettledAnswers() {
    }

    static Publisher<?> settled(Publisher<?> started, RendererSyncContext context, String handler,
            AnswerBarrier barrier) {
        if (started instanceof Flux<?> many) {
            Flux<Object> values = many.cast(Object.class);
            return values.concatMap(value -> settle(context, handler, barrier).thenReturn(value))
                    .concatWith(settle(context, handler, barrier).then(Mono.empty()));
        }
        Mono<Object> value = Mono.from(started).cast(Object.class);
        return value.flatMap(v -> settle(context, handler, barrier).thenReturn(v))
                .switchIfEmpty(settle(context, handler, barrier).then(Mono.empty()));
    }

    /** Runs the barriers on {@code context}: here when this thread runs its callback, else in a queued one. */
    private static Mono<Void> settle(RendererSyncContext context, String handler, AnswerBarrier barrier) {
        return Mono.defer(() -> {
            if (RendererSyncContext.current().orElse(null) == context) {
                try {
                    barrier.beforeAnswer(context, handler);
                    return Mono.empty();
                } catch (Exception refused) {
                    return Mono.error(refused);
                }
            }
            Callable<@Nullable Void> step = () -> {
                barrier.beforeAnswer(context, handler);
                return null;
            };
            return Mono.fromFuture(context.invokeAsync(step), true).then();
        });
    }
}
