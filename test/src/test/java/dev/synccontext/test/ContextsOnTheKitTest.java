package dev.synccontext.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** What a context built by the kit does differently: nothing queued runs, and no timeout waits, until the test says so. */
@SyncContextTest
class ContextsOnTheKitTest {

    @Test
    void queuedWorkRunsOnlyInRunUntilIdleOnTheTestsThread(SyncContextTestKit kit) {
        RendererSyncContext context = kit.newContext("c");
        List<String> ran = new ArrayList<>();
        context.post(() -> ran.add(Thread.currentThread().getName()));
        assertThat(ran).isEmpty();
        assertThat(kit.runUntilIdle()).isOne();
        assertThat(ran).containsExactly(Thread.currentThread().getName());
    }

    @Test
    void anIdleInvokeAsyncStillRunsInline(SyncContextTestKit kit) {
        RendererSyncContext context = kit.newContext("c");
        assertThat(context.invokeAsync(() -> 42)).isCompletedWithValue(42);
        assertThat(kit.executor().submitted()).isZero();
    }

    @Test
    void awaitTerminationRunsTheQueueAndAnswersWithoutWaiting(SyncContextTestKit kit) throws InterruptedException {
        RendererSyncContext context = kit.newContext("c");
        List<String> ran = new ArrayList<>();
        context.post(() -> ran.add("last"));
        context.close();
        assertThat(context.awaitTermination(Duration.ofSeconds(30))).isTrue();
        assertThat(ran).containsExactly("last");
        assertThat(kit.currentTime()).isZero();
    }

    @Test
    void awaitTerminationTimesOutOnVirtualTime(SyncContextTestKit kit) throws InterruptedException {
        RendererSyncContext context = kit.newContext("c");
        CountDownLatch release = new CountDownLatch(1);
        Thread caller = HungCaller.start(context, "caller", release);
        try {
            context.close();
            assertThat(context.awaitTermination(Duration.ofMinutes(5))).as("still running").isFalse();
            assertThat(kit.currentTime()).as("time moved to the deadline instead of the thread sleeping")
                    .isEqualTo(Duration.ofMinutes(5));
        } finally {
            release.countDown();
            HungCaller.join(caller);
        }
        assertThat(context.awaitTermination(Duration.ZERO)).isTrue();
    }

    @Test
    void runUntilDoneRunsWorkThatAnotherThreadQueuesWhileItWaits(SyncContextTestKit kit) {
        RendererSyncContext context = kit.newContext("c");
        context.post(() -> { }); // the context has queued work: a call arriving now queues behind it
        CompletableFuture<Integer> fromOutside = CompletableFuture
                .supplyAsync(() -> context.invokeAsync(() -> 7))
                .thenCompose(call -> call);
        assertThat(kit.runUntilDone(fromOutside, Duration.ofSeconds(30))).isCompletedWithValue(7);
    }

    @Test
    void runUntilDoneFailsClearlyWhenNothingWillEverCompleteTheFuture(SyncContextTestKit kit) {
        CompletableFuture<Void> never = new CompletableFuture<>();
        assertThatThrownBy(() -> kit.runUntilDone(never, Duration.ofMillis(50))).isInstanceOf(AssertionError.class)
                .hasMessageContaining("with the kit idle").hasMessageContaining("advance time");
    }
}
