package dev.synccontext.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.synccontext.Occupier;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * {@link IdlePathFloorBenchmark}'s variants are what its Javadoc says: each runs its callback once per call
 * and returns a completed future, releases what it claimed (the next call claims again), and the minimal
 * serializers refuse a second claimant instead of running two callbacks at once; the tear-down fails when
 * a call did not run its callback. No benchmark runs here.
 */
class IdlePathFloorBenchmarkTest {

    @Test
    void everyVariantRunsItsCallbackOncePerCallAndReleases() {
        IdlePathFloorBenchmark bench = new IdlePathFloorBenchmark();
        bench.setUp();
        List<Supplier<CompletableFuture<Void>>> variants = List.of(bench::context, bench::lockInline, bench::casPair,
                bench::casPairOwner, bench::casPairOwnerFrame, bench::lockInlineFrame);
        for (Supplier<CompletableFuture<Void>> variant : variants) {
            for (int i = 0; i < 3; i++) {
                assertThat(variant.get()).isCompletedWithValue(null);
            }
        }
        bench.tearDown(); // throws if a call's callback did not run
    }

    @Test
    void theTearDownFailsWhenACallbackDidNotRun() {
        IdlePathFloorBenchmark bench = new IdlePathFloorBenchmark();
        bench.setUp();
        bench.casPairOwnerFrame();
        bench.calls++; // a call whose callback never ran
        assertThatThrownBy(bench::tearDown).isInstanceOf(IllegalStateException.class)
                .hasMessage("1 callbacks ran for 2 calls");
    }

    @Test
    void aFailingCallbackCompletesItsFutureExceptionallyAndReleases() {
        IdlePathFloorBenchmark.CasPair pair = new IdlePathFloorBenchmark.CasPairOwnerFrame();
        assertThat(pair.invoke(() -> {
            throw new IllegalStateException("boom");
        })).isCompletedExceptionally();
        assertThat(pair.invoke(() -> { })).as("released after a failing callback").isCompletedWithValue(null);
    }

    @Test
    void aMinimalSerializerRefusesASecondClaimantWhileACallbackRuns() throws Exception {
        for (IdlePathFloorBenchmark.CasPair pair : List.of(new IdlePathFloorBenchmark.CasPair(),
                new IdlePathFloorBenchmark.CasPairOwner(), new IdlePathFloorBenchmark.CasPairOwnerFrame())) {
            CountDownLatch inside = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            Thread holder = new Thread(() -> pair.invoke(() -> {
                inside.countDown();
                Occupier.awaitUninterruptibly(release);
            }));
            holder.start();
            inside.await();
            assertThatThrownBy(() -> pair.invoke(() -> { })).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("busy");
            release.countDown();
            holder.join();
            assertThat(pair.invoke(() -> { })).isCompletedWithValue(null);
        }
    }
}
