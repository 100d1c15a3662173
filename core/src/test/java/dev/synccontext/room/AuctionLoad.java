package dev.synccontext.room;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.testing.Race;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * The load of the auction-room tests: {@value #USERS} users, each on a thread of its own, started together, each
 * bidding {@value #BIDS} times, each bid after the answer to the last, raising by 1 to 3 (from the run's random);
 * each user watches the room on {@value #TABS} tabs. Shared through core's test jar: the same load on the room
 * itself and over HTTP and STOMP.
 */
public final class AuctionLoad {

    public static final int USERS = 50;
    public static final int BIDS = 20;
    public static final int TABS = 2;
    /** How long a run may wait for one user's last answer: far beyond a run's length, only to end a hung one. */
    private static final Duration PATIENCE = Duration.ofMinutes(5);

    private AuctionLoad() {
    }

    /** One bid of {@code user}: returns once the room has answered it. */
    @FunctionalInterface
    public interface Bidding {
        void bid(int user, int raise) throws Exception;
    }

    /** One run of the load with the hop-back recipe: answers how many answers an outbid overtook. */
    @FunctionalInterface
    public interface HopBackRun {
        int outbidsBeforeAnswer(SplittableRandom random) throws Exception;
    }

    /**
     * Runs the load and waits for every user's last answer; fails with the first bidder's failure (in user order),
     * or when a user is still bidding {@link #PATIENCE} into the wait for it.
     */
    public static void run(SplittableRandom random, Bidding bidding) throws InterruptedException {
        List<Callable<Void>> users = new ArrayList<>();
        for (int u = 0; u < USERS; u++) {
            int user = u;
            SplittableRandom mine = random.split();
            users.add(() -> {
                for (int b = 0; b < BIDS; b++) {
                    bidding.bid(user, 1 + mine.nextInt(3));
                }
                return null;
            });
        }
        try {
            Race.run(PATIENCE, users);
        } catch (ExecutionException failed) {
            throw new AssertionError("a bidder's failure", failed.getCause());
        } catch (TimeoutException hung) {
            throw new AssertionError("a bidder still bidding after " + PATIENCE, hung);
        }
    }

    /**
     * The premise: runs the load with the hop-back recipe until an outbid overtakes a user's answer, at most
     * {@code maxRuns} times, prints what it saw (after {@code label}) with the seed, and fails if it never did.
     */
    public static void assertHopBackReorders(String label, int maxRuns, HopBackRun run) throws Exception {
        long seed = Long.getLong("stress.seed", System.nanoTime());
        SplittableRandom random = new SplittableRandom(seed);
        int reordered = 0;
        int runs = 0;
        while (reordered == 0 && runs < maxRuns) { // bounded: the race needs a preemption inside a short window
            reordered += run.outbidsBeforeAnswer(random.split());
            runs++;
        }
        System.out.println(label + "hop-back recipe: " + reordered + " outbid(s) before their answer within " + runs
                + " run(s), seed " + seed);
        assertThat(reordered).describedAs("the recipe's reordering within %d runs", runs).isPositive();
    }
}
