package dev.synccontext.stress;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * On real threads: a session bids 20,000 times (more, until a rival has got in 10 times) on a room, one bid after the other, while a rival thread keeps
 * asking the room to outbid whoever leads, which the room reports to the session. With
 * {@link RendererSyncContext#ask} the session always learns that a bid was accepted before it learns that
 * the same bid was outbid. The hop-back recipe runs the same race for comparison (its reorderings are
 * printed, not asserted: how often the race is won depends on the machine; AskTest's premise shows it
 * deterministically).
 */
class AskOrderStressTest {

    private static final int BIDS = 20_000;
    /** Bidding goes on past {@link #BIDS} until the rival has got in this often (up to {@link #MAX_BIDS}). */
    private static final int MIN_OUTBIDS = 10;
    private static final int MAX_BIDS = 1_000_000;

    @Test
    void anAskedAnswerIsNeverOvertakenByALaterMessageOfTheCallee() throws Exception {
        Race race = new Race("ask", (room, bid) -> RendererSyncContext.ask(room, bid));
        race.run();
        assertThat(race.outbids).describedAs("the rival got in too rarely: the test raced too little")
                .isGreaterThanOrEqualTo(MIN_OUTBIDS);
        assertThat(race.reordered).describedAs("outbids that reached the session before their bid's answer")
                .isZero();
    }

    @Test
    void forComparisonTheHopBackRecipeRacesTheSameWay() throws Exception {
        Race race = new Race("recipe", (room, bid) -> room.invokeAsync(bid).thenApplyAsync(n -> n,
                RendererSyncContext.current().orElseThrow()));
        race.run();
        assertThat(race.outbids).isPositive();
    }

    /** How the session asks the room to take bid {@code n}; called on the session. */
    @FunctionalInterface
    private interface Asking {
        CompletableFuture<Integer> ask(RendererSyncContext room, java.util.concurrent.Callable<Integer> bid);
    }

    private static final class Race {
        private final String name;
        private final Asking asking;
        private final RendererSyncContext session;
        private final RendererSyncContext room;
        private final CompletableFuture<Void> done = new CompletableFuture<>();
        private final AtomicBoolean finished = new AtomicBoolean();
        // Owned by the session:
        private final Set<Integer> accepted = new HashSet<>();
        int bids;
        int outbids;
        int reordered;
        // Owned by the room:
        private int leader;

        Race(String name, Asking asking) {
            this.name = name;
            this.asking = asking;
            this.session = RendererSyncContext.builder().name("session").build();
            this.room = RendererSyncContext.builder().name("room").build();
        }

        void run() throws Exception {
            Thread rival = new Thread(() -> {
                while (!finished.get()) {
                    room.invokeAsync(() -> {
                        int outbid = leader;
                        if (outbid != 0) {
                            leader = 0;
                            session.post(() -> {
                                outbids++;
                                if (!accepted.contains(outbid)) {
                                    reordered++;
                                }
                            });
                        }
                    });
                    Thread.onSpinWait();
                }
            }, "rival");
            rival.start();
            session.invokeAsync(() -> bid(1));
            done.get(60, TimeUnit.SECONDS);
            finished.set(true);
            rival.join();
            room.close();
            assertThat(room.awaitTermination(Duration.ofSeconds(10))).isTrue();
            session.close();
            assertThat(session.awaitTermination(Duration.ofSeconds(10))).isTrue();
            System.out.printf("%s: %d bids, %d outbid, %d outbids reached the session before their bid's answer%n",
                    name, bids, outbids, reordered);
        }

        /** On the session. */
        private void bid(int n) {
            IntFunction<Integer> take = value -> {
                leader = value;
                return value;
            };
            asking.ask(room, () -> take.apply(n)).whenComplete((value, failure) -> {
                if (failure != null) {
                    done.completeExceptionally(failure);
                    return;
                }
                accepted.add(value);
                bids = n;
                if (n < BIDS || (outbids < MIN_OUTBIDS && n < MAX_BIDS)) {
                    bid(n + 1);
                } else {
                    done.complete(null);
                }
            });
        }
    }
}
