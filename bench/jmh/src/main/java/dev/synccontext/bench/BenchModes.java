package dev.synccontext.bench;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.scenario.BaselineSyncContext;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** The {@code mode} parameter of every benchmark: which context implementation a scenario runs on. */
final class BenchModes {

    static final String BASELINE = "baseline";
    static final String OPTIMIZED = "optimized";
    static final String SINGLE_THREAD = "single-thread";
    static final String GUAVA_SEQUENTIAL = "guava-sequential";
    static final String LOCK_INLINE = "lock-inline";

    /** The hand-off peers of other libraries (one adapter each, see {@link HandOffContext}). */
    static final String NETTY_NONSTICKY = "netty-nonsticky";
    static final String KOTLINX_LIMITED = "kotlinx-limited";
    static final String GRPC_SYNC = "grpc-sync";
    static final String VERTX_WORKER = "vertx-worker";

    static final List<String> ALL = List.of(BASELINE, OPTIMIZED, SINGLE_THREAD, GUAVA_SEQUENTIAL, LOCK_INLINE);
    /**
     * The other libraries' hand-off designs (gRPC's drains on the caller). Not in {@link #ALL}; among
     * {@link SeedBenchmarks}' default modes (README's comparison table), elsewhere on request, e.g.
     * {@code -p mode=optimized,netty-nonsticky,kotlinx-limited}.
     */
    static final List<String> PEERS = List.of(NETTY_NONSTICKY, KOTLINX_LIMITED, GRPC_SYNC, VERTX_WORKER);
    /**
     * Not in {@link #ALL} nor in any benchmark's default modes: the scenarios' own floor
     * ({@link UnserializedContext}), run on request with {@code -p mode=unserialized}.
     */
    static final String UNSERIALIZED = "unserialized";
    /**
     * Not in {@link #ALL} nor in any benchmark's default modes: {@code lock-inline} on a fair lock
     * ({@link LockInlineContext#LockInlineContext(boolean)}), whose waiters are served first come, first
     * served, as a context's queued calls are; what FIFO costs a lock under {@code Contended}. On request,
     * {@code -p mode=lock-inline-fair}.
     */
    static final String LOCK_INLINE_FAIR = "lock-inline-fair";

    /** The {@code executor} parameter: the default executor ({@link RendererSyncContext#defaultExecutor()}). */
    static final String ELASTIC = "elastic";
    static final String COMMON_POOL = "common-pool";
    static final String VIRTUAL = "virtual";
    /** The JDK rival of the default executor: {@link CappedCachedPool}. */
    static final String CACHED_TPE = "cached-tpe";

    /**
     * {@code -Dbench.maxBatch=N} (e.g. {@code -jvmArgsAppend -Dbench.maxBatch=1024}) gives the optimized
     * mode's contexts that {@code maxBatch} instead of the default: how the default was chosen
     * (bench/README.md, "maxBatch").
     */
    private static final int MAX_BATCH = Integer.getInteger("bench.maxBatch", 0);

    private BenchModes() {
    }

    /** A fresh context for {@code mode}, the optimized one on the default executor. */
    static RendererSyncContext create(String mode) {
        return create(mode, ELASTIC);
    }

    /**
     * A fresh context for {@code mode}; the optimized one drains on {@code executor}, the others on the
     * common pool (except single-thread, which has its own thread, and the peers, which drain on their
     * library's shared pool: Netty's and kotlinx's of CPUs-many threads, Vert.x's worker pool; gRPC's
     * on the common pool or the caller).
     */
    static RendererSyncContext create(String mode, String executor) {
        switch (mode) {
            case BASELINE:
                return new BaselineSyncContext();
            case OPTIMIZED:
                RendererSyncContext.Builder builder = RendererSyncContext.builder().executor(executor(executor));
                return MAX_BATCH > 0 ? builder.maxBatch(MAX_BATCH).build() : builder.build();
            case SINGLE_THREAD:
                return ExecutorSerialContext.singleThread();
            case GUAVA_SEQUENTIAL:
                return ExecutorSerialContext.guavaSequential();
            case LOCK_INLINE:
                return new LockInlineContext(false);
            case LOCK_INLINE_FAIR:
                return new LockInlineContext(true);
            case NETTY_NONSTICKY:
                return new NettyNonStickyContext();
            case KOTLINX_LIMITED:
                return new KotlinxLimitedContext();
            case GRPC_SYNC:
                return new GrpcSyncContext();
            case VERTX_WORKER:
                return new VertxWorkerContext();
            case UNSERIALIZED:
                return new UnserializedContext();
            default:
                throw new IllegalArgumentException("Unknown mode '" + mode + "'; valid: " + String.join(", ", ALL)
                        + ", the peers " + String.join(", ", PEERS) + " (and " + UNSERIALIZED
                        + ", the scenarios' floor, and " + LOCK_INLINE_FAIR + ")");
        }
    }

    /** The executor named by the {@code executor} parameter. */
    static Executor executor(String name) {
        switch (name) {
            case ELASTIC:
                return RendererSyncContext.defaultExecutor();
            case COMMON_POOL:
                return ForkJoinPool.commonPool();
            case VIRTUAL:
                return VirtualThreads.SHARED;
            case CACHED_TPE:
                return CappedCachedPool.SHARED;
            default:
                throw new IllegalArgumentException("Unknown executor '" + name + "'; valid: " + ELASTIC + ", "
                        + COMMON_POOL + ", " + VIRTUAL + ", " + CACHED_TPE);
        }
    }

    /**
     * The pool a reviewer would write instead of the default executor: a cached {@link ThreadPoolExecutor}
     * capped like it ({@code CPUs} core threads, at most {@code max(256, 16 × CPUs)}, 60 s keep-alive), a
     * {@link SynchronousQueue} hand-off (a task gets an idle thread or a new one, so a blocked drain never
     * holds up another), and caller-runs once every thread is busy. Daemon threads {@code cached-tpe-N}.
     */
    private static final class CappedCachedPool {
        static final ThreadPoolExecutor SHARED = create();

        private static ThreadPoolExecutor create() {
            int cpus = Runtime.getRuntime().availableProcessors();
            AtomicInteger ids = new AtomicInteger();
            return new ThreadPoolExecutor(cpus, Math.max(256, 16 * cpus), 60, TimeUnit.SECONDS,
                    new SynchronousQueue<>(), task -> {
                        Thread t = new Thread(task, "cached-tpe-" + ids.incrementAndGet());
                        t.setDaemon(true);
                        return t;
                    }, new ThreadPoolExecutor.CallerRunsPolicy());
        }
    }

    /** One virtual-thread-per-task executor for every context, looked up reflectively (the bench compiles for 17). */
    private static final class VirtualThreads {
        static final Executor SHARED = perTaskExecutor();

        private static Executor perTaskExecutor() {
            try {
                return (Executor) java.util.concurrent.Executors.class.getMethod("newVirtualThreadPerTaskExecutor")
                        .invoke(null);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("virtual threads need Java 21+, this is Java "
                        + Runtime.version().feature(), e);
            }
        }
    }
}
