package dev.synccontext;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The premise of {@link ElasticExecutor}'s "Why not a capped cached {@code ThreadPoolExecutor}": the pool
 * a reviewer would write instead ({@code CPUs} core threads, a cap, a {@link SynchronousQueue} hand-off,
 * caller-runs once every thread is busy) keeps a blocked context from delaying another only while it is
 * below its cap; once every thread it may start is blocked, it runs the drain on the posting thread,
 * inside {@code post}, which the context promises never happens ({@link RendererSyncContext#post}). The
 * elastic pool queues the same post instead. Each test asserts what the pool was observed to do, so it
 * fails if the premise is wrong.
 */
class CappedCachedPoolPremiseTest {

    /** The reviewer's pool: {@code core} threads, at most {@code max}, hand-off, caller-runs. */
    static ThreadPoolExecutor cappedCachedPool(int core, int max) {
        AtomicInteger ids = new AtomicInteger();
        return new ThreadPoolExecutor(core, max, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), task -> {
            Thread t = new Thread(task, "cached-tpe-" + ids.incrementAndGet());
            t.setDaemon(true);
            return t;
        }, new ThreadPoolExecutor.CallerRunsPolicy());
    }

    @Test
    void atItsCapACappedCachedPoolRunsAPostInsidePostOnThePostingThread() throws Exception {
        ThreadPoolExecutor pool = cappedCachedPool(2, 2);
        try {
            PostAtCap observed = postWhileEveryThreadBlocks(pool);
            assertThat(observed.ranInsidePost).as("the post ran before post() returned (caller-runs)").isTrue();
            assertThat(observed.ranOn.get()).as("thread the post ran on").isSameAs(Thread.currentThread());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void atItsCapTheElasticPoolQueuesThePostForAPoolThread() throws Exception {
        ElasticExecutor pool = new ElasticExecutor("premise-elastic-", 2, 2, TimeUnit.SECONDS.toNanos(10),
                ElasticExecutor.DEFAULT_TICK_NANOS, ElasticExecutor.DEFAULT_SPIN_NANOS);
        PostAtCap observed = postWhileEveryThreadBlocks(pool);
        assertThat(observed.ranInsidePost).as("the post ran before post() returned").isFalse();
        assertThat(observed.ranOn.get()).as("thread the post ran on, once a blocked callback returned")
                .isNotNull().isNotSameAs(Thread.currentThread());
        assertThat(observed.ranOn.get().getName()).startsWith("premise-elastic-");
    }

    /**
     * Below its cap the reviewer's pool passes {@link BlockingCallbacksTest}'s rule too (a thread per
     * busy drain, whatever keeps it busy): the blocking scenario alone does not rule it out, its cap and
     * its post path do. Prints the threads each pool started for the scenario (neither retires within it).
     */
    @Test
    void belowItsCapACappedCachedPoolAlsoKeepsBlockedContextsFromDelayingOthers() throws Exception {
        int cpus = Runtime.getRuntime().availableProcessors();
        int max = Math.max(256, 16 * cpus);
        ThreadPoolExecutor cached = cappedCachedPool(cpus, max);
        ElasticExecutor elastic = new ElasticExecutor("premise-elastic-", cpus, max,
                ElasticExecutor.DEFAULT_KEEP_ALIVE_NANOS, ElasticExecutor.DEFAULT_TICK_NANOS,
                ElasticExecutor.DEFAULT_SPIN_NANOS);
        try {
            BlockingCallbacksTest.Comparison onCached = BlockingCallbacksTest.compare(contexts(cached));
            BlockingCallbacksTest.Comparison onElastic = BlockingCallbacksTest.compare(contexts(elastic));
            System.out.println("[premise] blocking scenario on a capped cached TPE: " + onCached + "; threads "
                    + cached.getLargestPoolSize() + ". On the elastic pool: " + onElastic + "; threads "
                    + elastic.threadCount());
            assertThat(onCached.blocked().ran()).as("posts that ran on the cached pool (%s)", onCached)
                    .isEqualTo(BlockingCallbacksTest.POSTS);
            assertThat(onCached.blocked().p99Millis()).as("p99 post-to-run on the cached pool (%s)", onCached)
                    .isLessThan(onCached.boundMillis());
        } finally {
            cached.shutdownNow();
        }
    }

    private static List<RendererSyncContext> contexts(Executor executor) {
        List<RendererSyncContext> contexts = new ArrayList<>();
        for (int i = 0; i < BlockingCallbacksTest.CONTEXTS; i++) {
            contexts.add(RendererSyncContext.create(executor));
        }
        return contexts;
    }

    /** What a post to an idle context did while both of a two-thread pool's threads were blocked. */
    private record PostAtCap(boolean ranInsidePost, AtomicReference<Thread> ranOn) {
    }

    /**
     * Blocks both threads of {@code pool} (at most 2) with a callback on each of two contexts, then
     * posts to a third, idle context from this thread; releases the blocked callbacks and waits for the
     * post to run before it returns.
     */
    private static PostAtCap postWhileEveryThreadBlocks(Executor pool) throws Exception {
        List<RendererSyncContext> contexts = List.of(RendererSyncContext.create(pool),
                RendererSyncContext.create(pool), RendererSyncContext.create(pool));
        CountDownLatch blocked = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        try {
            for (int i = 0; i < 2; i++) {
                contexts.get(i).post(() -> {
                    blocked.countDown();
                    Occupier.awaitUninterruptibly(release);
                });
            }
            assertThat(blocked.await(10, TimeUnit.SECONDS)).as("both pool threads blocked: %s", pool).isTrue();
            AtomicBoolean ran = new AtomicBoolean();
            AtomicReference<Thread> ranOn = new AtomicReference<>();
            CompletableFuture<Void> done = new CompletableFuture<>();
            contexts.get(2).post(() -> {
                ranOn.set(Thread.currentThread());
                ran.set(true);
                done.complete(null);
            });
            boolean ranInsidePost = ran.get();
            release.countDown();
            done.get(10, TimeUnit.SECONDS);
            return new PostAtCap(ranInsidePost, ranOn);
        } finally {
            release.countDown();
            for (RendererSyncContext ctx : contexts) {
                ctx.close();
                assertThat(ctx.awaitTermination(Duration.ofSeconds(10))).as("%s terminates", ctx).isTrue();
            }
        }
    }
}
