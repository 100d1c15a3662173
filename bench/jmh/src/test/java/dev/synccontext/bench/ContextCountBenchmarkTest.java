package dev.synccontext.bench;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.synccontext.RendererSyncContext;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link ContextCountBenchmark} passes on every mode it is run with, at several context and producer
 * counts (on a smaller invocation than JMH's), and its checks fail on a context that breaks FIFO, runs a
 * post twice or loses one. No benchmark runs here.
 */
class ContextCountBenchmarkTest {

    private static final int POSTS = 20_000;

    @ParameterizedTest
    @ValueSource(strings = {"optimized", "lock-inline", "netty-nonsticky", "kotlinx-limited"})
    void everyContextAndProducerCountPassesTwoInvocationsOnThisMode(String mode) {
        for (int contexts : new int[] {1, 100, 10_000}) {
            for (int producers : new int[] {1, 2}) {
                ContextCountBenchmark bench = bench(mode, contexts, producers);
                bench.setUp();
                try {
                    assertThatCode(() -> {
                        bench.post();
                        bench.post();
                        bench.verifyCounts();
                    }).as("%s, %d contexts, %d producers", mode, contexts, producers).doesNotThrowAnyException();
                } finally {
                    bench.tearDown();
                }
            }
        }
    }

    @Test
    void aContextThatRunsTwoPostsOutOfOrderFailsTheInvocation() {
        ContextCountBenchmark bench = bench("swapping", 100, 1);
        assertFirstPostFails(bench, SwapsPairs::new, "posts ran out of their producer's order");
    }

    @Test
    void aContextThatLosesAPostFailsTheInvocationAfterItsPatience() {
        ContextCountBenchmark bench = bench("losing", 100, 2);
        bench.patienceSeconds = 1;
        assertFirstPostFails(bench, losesTheThirdPostOfOne(), "1 of 100 contexts did not run all their 200 posts");
    }

    @Test
    void aContextThatRunsAPostTwiceFailsTheInvocation() {
        ContextCountBenchmark bench = bench("doubling", 100, 1);
        assertFirstPostFails(bench, RunsTheFirstPostTwice::new, "posts ran out of their producer's order");
    }

    /** Sets {@code bench} up over contexts from {@code factory}; its first invocation must fail with {@code message}. */
    private static void assertFirstPostFails(ContextCountBenchmark bench, Supplier<RendererSyncContext> factory,
            String message) {
        bench.setUp(factory);
        try {
            assertThatThrownBy(bench::post).isInstanceOf(IllegalStateException.class).hasMessageContaining(message);
        } finally {
            bench.tearDown();
        }
    }

    private static ContextCountBenchmark bench(String mode, int contexts, int producers) {
        ContextCountBenchmark bench = new ContextCountBenchmark();
        bench.mode = mode;
        bench.contexts = contexts;
        bench.producers = producers;
        bench.posts = POSTS;
        return bench;
    }

    /** Only the first context made drops a post (its third); every other context is {@link RunsInline}. */
    private static Supplier<RendererSyncContext> losesTheThirdPostOfOne() {
        int[] made = {0};
        return () -> made[0]++ == 0 ? new DropsThirdPost() : new RunsInline("inline");
    }

    /** Runs each post at once, serialized by a lock (two producers post to it). */
    private static class RunsInline extends AlternativeContext {
        RunsInline(String name) {
            super(name);
        }

        @Override
        CompletableFuture<Void> invokeRunnable(Runnable callback) {
            throw new UnsupportedOperationException();
        }

        @Override
        public <T> CompletableFuture<T> invokeAsyncStage(Callable<? extends CompletionStage<T>> callback) {
            throw new UnsupportedOperationException();
        }

        @Override
        public synchronized void post(Runnable callback) {
            callback.run();
        }

        @Override
        public boolean checkAccess() {
            return Thread.holdsLock(this);
        }
    }

    private static final class DropsThirdPost extends RunsInline {
        private int posts;

        DropsThirdPost() {
            super("drops-third-post");
        }

        @Override
        public synchronized void post(Runnable callback) {
            if (++posts != 3) {
                callback.run();
            }
        }
    }

    private static final class RunsTheFirstPostTwice extends RunsInline {
        private boolean first = true;

        RunsTheFirstPostTwice() {
            super("runs-first-post-twice");
        }

        @Override
        public synchronized void post(Runnable callback) {
            callback.run();
            if (first) {
                first = false;
                callback.run();
            }
        }
    }

    /** Holds every odd post and runs it after the next one: all posts run, each pair swapped. */
    private static final class SwapsPairs extends RunsInline {
        private @Nullable Runnable held;

        SwapsPairs() {
            super("swaps-pairs");
        }

        @Override
        public synchronized void post(Runnable callback) {
            Runnable first = held;
            if (first == null) {
                held = callback;
                return;
            }
            held = null;
            callback.run();
            first.run();
        }
    }
}
