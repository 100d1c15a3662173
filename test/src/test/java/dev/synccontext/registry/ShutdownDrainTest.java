package dev.synccontext.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.synccontext.ContextShuttingDownException;
import dev.synccontext.RendererSyncContext;
import dev.synccontext.SyncContextDefaults;
import dev.synccontext.live.CloseReason;
import dev.synccontext.live.LiveChannel;
import dev.synccontext.live.LiveChannelGroup;
import dev.synccontext.live.LiveSubscriber;
import dev.synccontext.test.HungCaller;
import dev.synccontext.test.ReadyTransport;
import dev.synccontext.test.SyncContextTestKit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The rules of {@link ShutdownDrain}, one per test, on the test kit's virtual clock: every wait (the
 * callbacks' deadline, the pace) moves virtual time instead of sleeping, so each instant is asserted
 * exactly.
 */
class ShutdownDrainTest {

    private final SyncContextTestKit kit = SyncContextTestKit.create();
    private final List<String> log = new ArrayList<>();
    private final LiveChannelGroup group = new LiveChannelGroup();
    private SyncContextRegistry registry = registry(Duration.ofSeconds(10));

    @AfterEach
    void verifyKit() {
        kit.verify();
    }

    @Test
    void readinessFlipsBeforeAnythingElseChanges() throws InterruptedException {
        RendererSyncContext context = registry.create("session");
        List<Tab> tabs = subscribe(3);
        List<Boolean> openDuringReadiness = new ArrayList<>();

        new ShutdownDrain(registry, group, Duration.ofSeconds(10), 100).run(() -> {
            log.add("readiness");
            tabs.forEach(tab -> openDuringReadiness.add(tab.subscriber.isOpen()));
            context.post(() -> log.add("accepted while readiness flips"));
            registry.create("session"); // still accepted: nothing else has changed yet
        });

        assertThat(openDuringReadiness).containsExactly(true, true, true);
        assertThat(log).containsExactly("readiness", "accepted while readiness flips");
        assertThat(tabs).allSatisfy(tab -> assertThat(tab.closed).containsExactly(CloseReason.GOING_AWAY));
    }

    @Test
    void newCallbacksAndContextsAreRefusedWithTheirReasonAndEveryOneIsCounted() throws InterruptedException {
        RendererSyncContext busy = registry.create("session");
        RendererSyncContext other = registry.create("session");
        List<Throwable> refusals = new ArrayList<>();
        // Queued before the drain: it runs during the drain and submits new work, which must be refused.
        busy.post(() -> {
            log.add("queued ran");
            try {
                other.post(() -> log.add("must not run"));
            } catch (RejectedExecutionException refused) {
                refusals.add(refused);
            }
            other.invokeAsync(() -> log.add("must not run either")).whenComplete((ok, refused) -> refusals.add(refused));
            try {
                registry.create("session");
            } catch (ShuttingDownException refused) {
                refusals.add(refused);
            }
        });

        ShutdownDrain.Report report = new ShutdownDrain(registry, group, Duration.ofSeconds(10), 100).run(() -> { });

        assertThat(log).containsExactly("queued ran");
        assertThat(refusals).hasSize(3);
        assertThat(refusals.get(0)).as("the post: the typed reason, still a RejectedExecutionException")
                .isInstanceOf(ContextShuttingDownException.class).isInstanceOf(RejectedExecutionException.class)
                .hasMessageContaining(other.name()).hasMessageContaining("application is shutting down");
        assertThat(refusals.get(1)).as("the invokeAsync's future").isInstanceOf(ContextShuttingDownException.class)
                .hasMessageContaining(other.name()).hasMessageContaining("shutting down");
        assertThat(refusals.get(2)).isInstanceOf(ShuttingDownException.class).hasMessageContaining("shutting down")
                .hasMessageContaining("REFUSING_TRAFFIC");
        assertThat(report.contexts()).isEqualTo(2);
        assertThat(report.ran()).as("the queued callback").isEqualTo(1);
        assertThat(report.refused()).as("the post and the invokeAsync").isEqualTo(2);
        assertThat(report.refusedCreations()).isEqualTo(1);
        assertThat(report.submitted()).isEqualTo(report.ran() + report.refused() + report.cancelled()).isEqualTo(3);
        assertThat(report.forced()).isZero();
        assertThatThrownBy(() -> registry.forKey("k")).isInstanceOf(ShuttingDownException.class);
    }

    @Test
    void callbacksSubmittedAfterTheDrainClosedTheirContextGetTheTypedReasonAndAreCounted() throws InterruptedException {
        RendererSyncContext drained = registry.create("session");
        RendererSyncContext releasedBefore = registry.create("session");
        registry.release(releasedBefore); // closed by a plain close before the drain
        Throwable plainBefore = releasedBefore.invokeAsync(() -> log.add("must not run")).handle((ok, e) -> e).join();

        ShutdownDrain.Report report = new ShutdownDrain(registry, group, Duration.ofSeconds(10), 100).run(() -> { });

        assertThat(plainBefore).as("a plain close's refusal is the old one")
                .isExactlyInstanceOf(RejectedExecutionException.class).hasMessageContaining("is closed");
        assertThatThrownBy(() -> drained.post(() -> log.add("must not run")))
                .isInstanceOf(ContextShuttingDownException.class).hasMessageContaining("'" + drained.name() + "'")
                .hasMessageContaining("application is shutting down");
        assertThat(drained.invokeAsync(() -> log.add("must not run")).handle((ok, e) -> e).join())
                .isInstanceOf(ContextShuttingDownException.class).hasMessageContaining(drained.name());
        assertThatThrownBy(() -> drained.send(() -> log.add("must not run"))).isInstanceOf(ContextShuttingDownException.class);
        assertThat(log).isEmpty();
        assertThat(report.contexts()).isEqualTo(1);
        assertThat(report.submitted()).as("nothing was submitted during the drain").isZero();
    }

    @Test
    void queuedWorkFinishesButAHungCallbackIsForcedAtTheCallbacksDeadline() throws InterruptedException {
        RendererSyncContext hung = registry.create("session");
        CountDownLatch release = new CountDownLatch(1);
        Thread caller = hang(hung, release);
        try {
            hung.post(() -> log.add("queued behind the hung one"));
            RendererSyncContext fine = registry.create("session");
            fine.post(() -> log.add("queued elsewhere"));

            ShutdownDrain.Report report = new ShutdownDrain(registry, group, Duration.ofSeconds(10), 100).run(() -> { });

            assertThat(log).containsExactly("queued elsewhere");
            assertThat(report.forced()).isEqualTo(1);
            assertThat(registry.cancelledPosts()).as("the post behind the hung callback, dropped and counted").isEqualTo(1);
            assertThat(report.callbacks()).as("no subscriber: the whole timeout is the callbacks'")
                    .isEqualTo(Duration.ofSeconds(10));
            assertThat(report.took()).isEqualTo(Duration.ofSeconds(10));
        } finally {
            release.countDown();
            caller.join(10_000);
        }
    }

    @Test
    void theCallbacksDeadlineLeavesTheGoingAwayItsTimeButNeverLessThanHalf() throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        Thread caller = hang(registry.create("session"), release);
        try {
            subscribe(4); // 4 at 1/s: the going-away needs 4 s, so the callbacks get 10 - 4 = 6 s
            ShutdownDrain.Report report = new ShutdownDrain(registry, group, Duration.ofSeconds(10), 1).run(() -> { });
            assertThat(report.callbacks()).isEqualTo(Duration.ofSeconds(6));
            assertThat(report.goneAway()).isEqualTo(4);
            assertThat(report.goneAwayAtDeadline()).isZero();
        } finally {
            release.countDown();
            caller.join(10_000);
        }
        registry = registry(Duration.ofSeconds(10));
        CountDownLatch release2 = new CountDownLatch(1);
        Thread caller2 = hang(registry.create("session"), release2);
        try {
            group.subscribers().forEach(LiveSubscriber::cancel);
            subscribe(100); // 100 s of going-away: the callbacks still get half the timeout
            ShutdownDrain.Report report = new ShutdownDrain(registry, group, Duration.ofSeconds(10), 1).run(() -> { });
            assertThat(report.callbacks()).isEqualTo(Duration.ofSeconds(5));
        } finally {
            release2.countDown();
            caller2.join(10_000);
        }
    }

    @Test
    void subscribersGoAwayAtThePaceEachAtItsOwnInstant() throws InterruptedException {
        List<Tab> tabs = subscribe(10);
        long start = kit.clock().nanoTime();

        ShutdownDrain.Report report = new ShutdownDrain(registry, group, Duration.ofSeconds(10), 2).run(() -> { });

        // The group's order is not the subscription order: the instants, sorted, are one every 1/pace seconds.
        assertThat(closeInstants(tabs, start)).containsExactly(0L, 500L, 1000L, 1500L, 2000L, 2500L, 3000L, 3500L,
                4000L, 4500L);
        assertThat(tabs).allSatisfy(tab -> {
            assertThat(tab.closed).containsExactly(CloseReason.GOING_AWAY);
            assertThat(tab.subscriber.closeReason()).isEqualTo(CloseReason.GOING_AWAY);
        });
        assertThat(report.goneAway()).isEqualTo(10);
        assertThat(report.took()).isEqualTo(Duration.ofMillis(4500));
        assertThat(group.subscribers()).isEmpty();
    }

    @Test
    void afterAStallOfTheDrainingThreadThePaceSlipsInsteadOfBursting() throws InterruptedException {
        List<Tab> tabs = subscribe(10);
        int[] closes = {0};
        tabs.forEach(tab -> tab.onClose = () -> {
            if (++closes[0] == 3) {
                kit.clock().advanceBy(Duration.ofSeconds(1)); // the draining thread loses the CPU for a second
            }
        });
        long start = kit.clock().nanoTime();

        ShutdownDrain.Report report = new ShutdownDrain(registry, group, Duration.ofSeconds(30), 2).run(() -> { });

        List<Long> instants = closeInstants(tabs, start);
        assertThat(report.goneAway()).isEqualTo(10);
        for (int i = 1; i < instants.size(); i++) {
            assertThat(instants.get(i) - instants.get(i - 1)).as("gap before close %d (all: %s)", i, instants)
                    .isGreaterThanOrEqualTo(500 - ShutdownDrain.MAX_CATCH_UP_NANOS / 1_000_000);
        }
        assertThat(instants.get(3)).as("the first close after the stall").isEqualTo(2000L);
    }

    @Test
    void thoseLeftAtTheDeadlineGoAwayAtOnceCounted() throws InterruptedException {
        List<Tab> tabs = subscribe(30); // 2/s for 10 s: 20 paced (0 s .. 9.5 s), 10 at the deadline
        long start = kit.clock().nanoTime();

        ShutdownDrain.Report report = new ShutdownDrain(registry, group, Duration.ofSeconds(10), 2).run(() -> { });

        assertThat(report.goneAway()).isEqualTo(20);
        assertThat(report.goneAwayAtDeadline()).isEqualTo(10);
        List<Long> instants = closeInstants(tabs, start);
        for (int i = 0; i < 20; i++) {
            assertThat(instants.get(i)).isEqualTo(i * 500L);
        }
        assertThat(instants.subList(20, 30)).containsOnly(10_000L);
        assertThat(report.took()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void paceZeroTellsEveryoneAtOnce() throws InterruptedException {
        List<Tab> tabs = subscribe(50);
        long start = kit.clock().nanoTime();
        ShutdownDrain.Report report = new ShutdownDrain(registry, group, Duration.ofSeconds(10), 0).run(() -> { });
        assertThat(report.goneAway()).isEqualTo(50);
        assertThat(tabs).allSatisfy(tab -> assertThat(tab.closedAt).isEqualTo(start));
    }

    @Test
    void aSubscriberThatEndedMeanwhileIsNotCountedAndAClosedChannelLeavesTheGroup() throws InterruptedException {
        List<Tab> tabs = subscribe(3);
        tabs.get(1).subscriber.cancel();
        LiveChannel gone = LiveChannel.builder("gone").executor(Runnable::run).group(group).build(() -> "snapshot");
        gone.close();
        assertThat(group.channels()).doesNotContain(gone);
        ShutdownDrain.Report report = new ShutdownDrain(registry, group, Duration.ofSeconds(10), 0).run(() -> { });
        assertThat(report.goneAway()).isEqualTo(2);
        assertThat(tabs.get(1).closed).containsExactly(CloseReason.CANCELLED);
    }

    // ---------------------------------------------------------------- fixtures

    private SyncContextRegistry registry(Duration shutdownTimeout) {
        ContextTemplate template = new ContextTemplate(kit.executor(), "deterministic", SyncContextDefaults.MAX_BATCH,
                SyncContextDefaults.MAX_QUEUE_DEPTH, Duration.ZERO, shutdownTimeout, null);
        return new SyncContextRegistry(template, null, List.of(), kit.clock());
    }

    /** Subscribers on one channel each (one tab per session), whose transports record their close and its instant. */
    private List<Tab> subscribe(int count) {
        List<Tab> tabs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            LiveChannel channel = LiveChannel.builder("board-" + i).executor(Runnable::run).group(group)
                    .build(() -> "snapshot");
            Tab tab = new Tab();
            tab.subscriber = channel.subscribe(tab);
            tabs.add(tab);
        }
        return tabs;
    }

    /** When each tab was told, in milliseconds after {@code start}, sorted. */
    private static List<Long> closeInstants(List<Tab> tabs, long start) {
        return tabs.stream().map(tab -> (tab.closedAt - start) / 1_000_000).sorted().toList();
    }

    /** A callback of {@code context} hung on {@code release} (an interrupt ends it too); returns once it runs. */
    private static Thread hang(RendererSyncContext context, CountDownLatch release) throws InterruptedException {
        return HungCaller.start(context, "hung-caller", release);
    }

    private final class Tab extends ReadyTransport {
        LiveSubscriber subscriber;
        final List<CloseReason> closed = new ArrayList<>();
        long closedAt = -1;
        Runnable onClose = () -> { };

        @Override
        public void close(CloseReason reason) {
            closed.add(reason);
            closedAt = kit.clock().nanoTime();
            onClose.run();
        }
    }
}
