package dev.synccontext.many;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.synccontext.ContextDeadlockException;
import dev.synccontext.RendererSyncContext;
import dev.synccontext.test.SyncContextTestKit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@link RendererSyncContext#ask}: one rule per test, on the kit (nothing runs by itself, so each order
 * below is the only one possible, or every one the explorer tries).
 */
class AskTest {

    /** Seeds the explorer tries; the premise finds a reordering among them, the rule none. */
    private static final int SEEDS = 300;

    /** For the rules shown on one FIFO kit: a session that asks, a room that answers. */
    private final SyncContextTestKit kit = SyncContextTestKit.create();
    private final RendererSyncContext session = kit.newContext("session");
    private final RendererSyncContext room = kit.newContext("room");

    @Test
    void theAnswerIsQueuedOnTheCallerBeforeAnythingTheCalleeSendsItAfterwards() {
        for (long seed = 0; seed < SEEDS; seed++) {
            Auction auction = new Auction(SyncContextTestKit.exploring(seed));
            auction.kit.spawn(() -> auction.session.invokeAsync(
                    () -> RendererSyncContext.ask(auction.room, auction::bidForSession).thenAccept(auction::record)));
            auction.spawnRival();
            auction.kit.runUntilIdle();
            assertThat(auction.sessionLog)
                    .describedAs("seed %d: the session must learn its bid was accepted before it learns it was outbid", seed)
                    .containsExactly("accepted 10", "outbid by 20");
            auction.kit.verify();
        }
    }

    /**
     * The premise: the hop-back recipe {@code room.invokeAsync(bid).thenApplyAsync(record, session)} hops after
     * the room was released (the two calls are two steps: a thread can lose the CPU between them), so the
     * rival's "outbid", sent by a later callback of the room, can reach the session first.
     */
    @Test
    void premiseTheHopBackRecipeLetsALaterMessageOfTheCalleeOvertakeTheAnswer() {
        List<Long> reordered = new ArrayList<>();
        for (long seed = 0; seed < SEEDS; seed++) {
            Auction auction = new Auction(SyncContextTestKit.exploring(seed));
            AtomicReference<CompletableFuture<Integer>> bid = new AtomicReference<>();
            auction.kit.spawn(
                    () -> bid.set(auction.room.invokeAsync(auction::bidForSession)),
                    () -> bid.get().thenAcceptAsync(auction::record, auction.session));
            auction.spawnRival();
            auction.kit.runUntilIdle();
            assertThat(auction.sessionLog).hasSize(2);
            if (auction.sessionLog.get(0).startsWith("outbid")) {
                reordered.add(seed);
            }
            auction.kit.verify();
        }
        System.out.println("hop-back recipe reordered under seeds " + reordered);
        assertThat(reordered).describedAs("no interleaving of %d reordered the recipe's answer", SEEDS).isNotEmpty();
    }

    @Test
    void theAnswerRunsOnTheCallersContextInALaterCallback() {
        AtomicReference<Optional<RendererSyncContext>> answeredOn = new AtomicReference<>();
        AtomicBoolean askReturned = new AtomicBoolean();
        session.invokeAsync(() -> {
            RendererSyncContext.ask(room, () -> RendererSyncContext.current().orElseThrow().name())
                    .thenAccept(name -> {
                        assertThat(askReturned).describedAs("answered inside the asking callback").isTrue();
                        answeredOn.set(RendererSyncContext.current());
                    });
            askReturned.set(true);
        });
        kit.runUntilIdle();
        assertThat(answeredOn.get()).describedAs("the answer's dependent runs on the caller's context").containsSame(session);
        kit.verify();
    }

    @Test
    void whatTheCalleeThrowsFailsTheFutureOnTheCallersContext() {
        Completion completion = askFromSession(() -> {
            throw new IllegalStateException("no such lot");
        });
        assertThat(completion.failure.get()).isInstanceOf(IllegalStateException.class).hasMessage("no such lot");
        assertThat(completion.on.get()).containsSame(session);
        kit.verify();
    }

    @Test
    void aClosedTargetsRefusalReachesTheFutureOnTheCallersContext() {
        room.close();
        AtomicBoolean ran = new AtomicBoolean();
        Completion completion = askFromSession(() -> ran.getAndSet(true));
        assertThat(ran).isFalse();
        assertThat(completion.failure.get()).isInstanceOf(RejectedExecutionException.class).hasMessageContaining("'room'");
        assertThat(completion.on.get()).containsSame(session);
        kit.verify();
    }

    @Test
    void aFullTargetsRefusalReachesTheFuture() {
        RendererSyncContext fullRoom = kit.contextBuilder().name("full-room").maxQueueDepth(1).build();
        fullRoom.post(() -> { }); // the one slot
        AtomicReference<CompletableFuture<Boolean>> asked = new AtomicReference<>();
        session.invokeAsync(() -> asked.set(RendererSyncContext.ask(fullRoom, () -> true)));
        kit.runUntilIdle();
        assertThatThrownBy(() -> asked.get().join()).hasCauseInstanceOf(RejectedExecutionException.class)
                .hasMessageContaining("'full-room' is full");
        kit.verify();
    }

    @Test
    void outsideAnyContextAnAskIsPlainInvokeAsync() {
        CompletableFuture<String> answer = RendererSyncContext.ask(room, () -> "ran inline");
        assertThat(answer).describedAs("idle room: inline, as invokeAsync").isCompletedWithValue("ran inline");
        kit.verify();
    }

    @Test
    void askingTheCallersOwnContextRunsNestedAndIsDoneAtOnce() {
        AtomicReference<CompletableFuture<String>> answer = new AtomicReference<>();
        session.invokeAsync(() -> answer.set(RendererSyncContext.ask(session, () -> "nested")));
        assertThat(answer.get()).isCompletedWithValue("nested");
        kit.verify();
    }

    @Test
    void joiningAnAskInsideTheCallerFailsFastWhetherOrNotTheCalleeRanYet() {
        RendererSyncContext busyRoom = kit.newContext("busy-room");
        busyRoom.post(() -> { }); // queued: the asked callback waits behind it
        List<Throwable> thrown = new ArrayList<>();
        session.invokeAsync(() -> {
            for (RendererSyncContext asked : List.of(room, busyRoom)) { // room is idle
                CompletableFuture<Integer> answer = RendererSyncContext.ask(asked, () -> 1);
                try {
                    answer.join();
                } catch (RuntimeException e) {
                    thrown.add(e);
                }
                try {
                    answer.thenApply(x -> x + 1).join();
                } catch (RuntimeException e) {
                    thrown.add(e);
                }
            }
        });
        kit.runUntilIdle();
        assertThat(thrown).hasSize(4).allSatisfy(e -> assertThat(e).isInstanceOf(ContextDeadlockException.class)
                .hasMessageContaining("'session'"));
        kit.verify();
    }

    @Test
    void cancellingAnAskBeforeTheCalleeStartsKeepsItFromRunning() {
        room.post(() -> { }); // busy: the asked callback queues
        AtomicBoolean ran = new AtomicBoolean();
        AtomicReference<CompletableFuture<Boolean>> answer = new AtomicReference<>();
        session.invokeAsync(() -> {
            answer.set(RendererSyncContext.ask(room, () -> ran.getAndSet(true)));
            answer.get().cancel(false);
        });
        kit.runUntilIdle();
        assertThat(ran).isFalse();
        assertThat(answer.get()).isCancelled();
        kit.verify();
    }

    @Test
    void aCallerClosedBeforeTheAnswerFailsTheFutureNamingBothContexts() {
        room.post(() -> session.close()); // runs before the asked callback
        AtomicReference<CompletableFuture<String>> answer = new AtomicReference<>();
        AtomicBoolean ran = new AtomicBoolean();
        session.invokeAsync(() -> answer.set(RendererSyncContext.ask(room, () -> {
            ran.set(true);
            return "sold";
        })));
        kit.runUntilIdle();
        assertThat(ran).describedAs("the asked callback ran").isTrue();
        assertThatThrownBy(() -> answer.get().join()).hasCauseInstanceOf(RejectedExecutionException.class)
                .hasMessageContaining("'room'").hasMessageContaining("'session'").hasMessageContaining("did run");
        kit.verify();
    }

    /** How the future of an ask made from the session completed, and which context its dependent ran on. */
    private record Completion(AtomicReference<Throwable> failure, AtomicReference<Optional<RendererSyncContext>> on) {
    }

    /** Asks the room from a callback of the session for {@code callee}, then runs the kit until idle. */
    private <T> Completion askFromSession(Callable<T> callee) {
        Completion completion = new Completion(new AtomicReference<>(), new AtomicReference<>());
        session.invokeAsync(() -> RendererSyncContext.ask(room, callee).whenComplete((value, thrown) -> {
            completion.failure.set(thrown);
            completion.on.set(RendererSyncContext.current());
        }));
        kit.runUntilIdle();
        return completion;
    }

    /** A room that takes bids, a session that bids, and a rival whose higher bid the room reports to the session. */
    private static final class Auction {
        final SyncContextTestKit kit;
        final RendererSyncContext session;
        final RendererSyncContext room;
        final List<String> sessionLog = new ArrayList<>(); // owned by session
        private int highest; // owned by room
        private boolean sessionLeads; // owned by room

        Auction(SyncContextTestKit kit) {
            this.kit = kit;
            this.session = kit.newContext("session");
            this.room = kit.newContext("room");
        }

        /** On the room. */
        int bidForSession() {
            highest = 10;
            sessionLeads = true;
            return 10;
        }

        /** On the session. */
        void record(int accepted) {
            sessionLog.add("accepted " + accepted);
        }

        /** A rival who bids 20 once the session leads, trying in steps of its own until it has; the room tells the session. */
        void spawnRival() {
            AtomicBoolean outbid = new AtomicBoolean();
            kit.spawn(new Runnable() {
                @Override
                public void run() {
                    if (outbid.get()) {
                        return;
                    }
                    room.invokeAsync(() -> {
                        if (sessionLeads && !outbid.getAndSet(true)) {
                            highest = 20;
                            sessionLeads = false;
                            int price = highest;
                            session.post(() -> sessionLog.add("outbid by " + price));
                        }
                    });
                    kit.spawn(this); // try again in a later step
                }
            });
        }
    }
}
