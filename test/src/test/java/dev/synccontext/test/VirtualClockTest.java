package dev.synccontext.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class VirtualClockTest {

    private final DeterministicExecutor executor = new DeterministicExecutor();
    private final VirtualClock clock = new VirtualClock(executor);

    @Test
    void timeMovesOnlyWhenTheTestMovesIt() {
        assertThat(clock.nanoTime()).isZero();
        clock.schedule(() -> { }, Duration.ofSeconds(1));
        executor.runUntilIdle();
        assertThat(clock.currentTime()).as("running queued work moves no time").isZero();
        clock.advanceBy(Duration.ofMillis(1500));
        assertThat(clock.currentTime()).isEqualTo(Duration.ofMillis(1500));
    }

    @Test
    void aTimerFiresExactlyAtItsDueTimeAndNotANanosecondEarlier() {
        List<Long> firedAt = new ArrayList<>();
        clock.schedule(() -> firedAt.add(clock.nanoTime()), Duration.ofSeconds(30));
        clock.advanceBy(Duration.ofSeconds(30).minusNanos(1));
        assertThat(firedAt).as("at 30 s - 1 ns").isEmpty();
        clock.advanceBy(Duration.ofNanos(1));
        assertThat(firedAt).as("the timer reads its due time").containsExactly(Duration.ofSeconds(30).toNanos());
    }

    @Test
    void timersFireInDueOrderThenInTheOrderTheyWereSetEachFollowedByTheWorkItQueued() {
        List<String> log = new ArrayList<>();
        clock.schedule(() -> executor.execute(() -> log.add("work of b")), Duration.ofSeconds(2));
        clock.schedule(() -> log.add("a"), Duration.ofSeconds(1));
        clock.schedule(() -> log.add("b2"), Duration.ofSeconds(2));
        clock.schedule(() -> log.add("c"), Duration.ofSeconds(3));
        clock.advanceBy(Duration.ofSeconds(2));
        assertThat(log).containsExactly("a", "work of b", "b2");
    }

    @Test
    void aTimerSetByATimerForNowFiresInTheSameAdvance() {
        List<Duration> log = new ArrayList<>();
        clock.schedule(() -> clock.schedule(() -> log.add(clock.currentTime()), Duration.ofSeconds(1)),
                Duration.ofSeconds(1));
        clock.advanceBy(Duration.ofSeconds(2));
        assertThat(log).containsExactly(Duration.ofSeconds(2));
    }

    @Test
    void aCancelledTimerNeverFires() {
        List<String> log = new ArrayList<>();
        Future<?> timer = clock.schedule(() -> log.add("fired"), Duration.ofSeconds(1));
        assertThat(timer.cancel(false)).isTrue();
        clock.advanceBy(Duration.ofSeconds(5));
        assertThat(log).isEmpty();
        assertThat(clock.pendingTimers()).isZero();
    }

    @Test
    void awaitRunsQueuedWorkAndAnswersAtOnceWhenItCompletesTheFuture() throws InterruptedException {
        CompletableFuture<Void> done = new CompletableFuture<>();
        executor.execute(() -> done.complete(null));
        assertThat(clock.await(done, Duration.ofSeconds(10).toNanos())).isTrue();
        assertThat(clock.currentTime()).isZero();
    }

    @Test
    void awaitMovesTimeToTheDeadlineInsteadOfSleeping() throws InterruptedException {
        CompletableFuture<Void> never = new CompletableFuture<>();
        assertThat(clock.await(never, Duration.ofSeconds(10).toNanos())).isFalse();
        assertThat(clock.currentTime()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void awaitFiresTimersUpToTheDeadlineAndStopsWhenOneCompletesTheFuture() throws InterruptedException {
        CompletableFuture<Void> done = new CompletableFuture<>();
        clock.schedule(() -> done.complete(null), Duration.ofSeconds(3));
        assertThat(clock.await(done, Duration.ofSeconds(10).toNanos())).isTrue();
        assertThat(clock.currentTime()).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void advanceUntilIdleRefusesATimerThatReSetsItselfForever() {
        Runnable[] tick = new Runnable[1];
        tick[0] = () -> clock.schedule(tick[0], Duration.ofSeconds(1));
        clock.schedule(tick[0], Duration.ofSeconds(1));
        assertThatThrownBy(clock::advanceUntilIdle).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("periodic timer").hasMessageContaining("advanceBy");
    }

    @Test
    void aBackgroundTimerFiresAsTimePassesButNeverCountsAsPendingNorMovesTimeAlone() {
        List<Duration> fired = new ArrayList<>();
        Runnable[] scan = new Runnable[1];
        scan[0] = () -> {
            fired.add(clock.currentTime());
            clock.scheduleBackground(scan[0], Duration.ofSeconds(1)); // re-sets itself forever, as the watchdog's scans
        };
        clock.scheduleBackground(scan[0], Duration.ofSeconds(1));
        assertThat(clock.pendingTimers()).isZero();
        clock.advanceUntilIdle();
        assertThat(clock.currentTime()).as("time does not move for a background timer alone").isZero();
        assertThat(fired).isEmpty();

        List<Duration> user = new ArrayList<>();
        clock.schedule(() -> user.add(clock.currentTime()), Duration.ofMillis(2500));
        assertThat(clock.pendingTimers()).isOne();
        clock.advanceUntilIdle();
        assertThat(user).containsExactly(Duration.ofMillis(2500));
        assertThat(fired).as("fired in order as time passed them").containsExactly(Duration.ofSeconds(1),
                Duration.ofSeconds(2));
        assertThat(clock.currentTime()).isEqualTo(Duration.ofMillis(2500));

        clock.advanceBy(Duration.ofMillis(500));
        assertThat(fired).hasSize(3).last().isEqualTo(Duration.ofSeconds(3));
        assertThat(clock.pendingTimers()).isZero();
    }

    @Test
    void advanceUntilIdleCountsOnlyItsOwnTimersAgainstTheLimit() {
        Runnable[] scan = new Runnable[1];
        scan[0] = () -> clock.scheduleBackground(scan[0], Duration.ofMillis(1));
        clock.scheduleBackground(scan[0], Duration.ofMillis(1));
        Duration far = Duration.ofMillis(2L * VirtualClock.MAX_TIMERS_PER_ADVANCE); // twice the limit in background firings
        clock.schedule(() -> { }, far);
        clock.advanceUntilIdle();
        assertThat(clock.currentTime()).isEqualTo(far);
    }

    @Test
    void advanceByRefusesToGoBack() {
        assertThatThrownBy(() -> clock.advanceBy(Duration.ofNanos(-1))).isInstanceOf(IllegalArgumentException.class);
    }
}
