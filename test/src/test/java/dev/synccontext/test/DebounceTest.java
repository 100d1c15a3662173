package dev.synccontext.test;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.ContextClock;
import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/** A 30-second debounce on a context, waited out on virtual time: exact to the nanosecond, in microseconds. */
@SyncContextTest
class DebounceTest {

    private static final Duration QUIET = Duration.ofSeconds(30);

    /** Runs {@code action} on its context once changes have stopped for {@code quiet}; used on its context only. */
    static final class Debounce {

        private final RendererSyncContext context;
        private final ContextClock clock;
        private final Runnable action;
        private @Nullable Future<?> pending;

        Debounce(RendererSyncContext context, ContextClock clock, Runnable action) {
            this.context = context;
            this.clock = clock;
            this.action = action;
        }

        void changed() {
            context.assertAccess();
            if (pending != null) {
                pending.cancel(false);
            }
            pending = clock.schedule(() -> context.post(action), QUIET);
        }
    }

    @Test
    void firesThirtySecondsAfterTheChangeAndNotAMillisecondBeforeInUnderASecondOfWallTime(SyncContextTestKit kit) {
        long wallStart = System.nanoTime();
        RendererSyncContext context = kit.newContext("search-box");
        List<Duration> saved = new ArrayList<>();
        Debounce debounce = new Debounce(context, kit.clock(), () -> saved.add(kit.currentTime()));

        context.post(debounce::changed);
        kit.runUntilIdle();
        kit.advanceBy(Duration.ofMillis(29_999));
        assertThat(saved).as("at virtual 29.999 s").isEmpty();
        kit.advanceBy(Duration.ofMillis(1));
        assertThat(saved).as("at virtual 30 s").containsExactly(QUIET);

        assertThat(Duration.ofNanos(System.nanoTime() - wallStart)).as("wall time").isLessThan(Duration.ofSeconds(1));
    }

    @Test
    void aLaterChangeRestartsTheQuietPeriod(SyncContextTestKit kit) {
        RendererSyncContext context = kit.newContext("search-box");
        List<Duration> saved = new ArrayList<>();
        Debounce debounce = new Debounce(context, kit.clock(), () -> saved.add(kit.currentTime()));
        context.post(debounce::changed);
        kit.advanceBy(Duration.ofSeconds(10));
        context.post(debounce::changed);
        kit.advanceBy(Duration.ofSeconds(25));
        assertThat(saved).as("35 s after the first change, 25 s after the second").isEmpty();
        kit.advanceUntilIdle();
        assertThat(saved).containsExactly(Duration.ofSeconds(40));
    }
}
