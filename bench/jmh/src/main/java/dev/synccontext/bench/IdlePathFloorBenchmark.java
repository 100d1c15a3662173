package dev.synccontext.bench;

import dev.synccontext.RendererSyncContext;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What one idle {@code invokeAsync(Runnable)} is made of: the context's idle call against
 * {@code lock-inline}'s and against minimal serializers built up one piece at a time, each piece one
 * that the context's guarantees need. One operation is one call on an idle, uncontended context from
 * the benchmark thread; each benchmark runs in a fork of its own, so every call site is monomorphic.
 *
 * <ul>
 *   <li>{@link #context}: {@code RendererSyncContext} as the starter builds it (the default executor, no
 *       observer): {@code InvokeAsyncReady}'s call without the scenario's loop.</li>
 *   <li>{@link #lockInline}: the Vaadin session-lock model ({@link LockInlineContext}): lock, run,
 *       unlock.</li>
 *   <li>{@link #casPair}: the least a serializer that tells "idle" from "queued" in one word can do: CAS
 *       the word 0 → 1, run, CAS it 1 → 0 (a release that must notice a producer that queued meanwhile
 *       cannot be a plain store).</li>
 *   <li>{@link #casPairOwner}: plus the owner token, written before and cleared after the callback
 *       (what tells a nested call from inside the context, and what the deadlock guard reads).</li>
 *   <li>{@link #casPairOwnerFrame}: plus a per-thread frame entered and left around the callback, as the
 *       context's {@code CallbackFrame}: one {@link ThreadLocal} lookup and three plain writes. The
 *       deadlock guard needs it (a thread about to block must know it is inside a context) and so does
 *       the watchdog (which callback a thread runs); {@code lock-inline} has neither.</li>
 *   <li>{@link #lockInlineFrame}: {@code lock-inline} with the same frame, so the two designs are compared
 *       with the same per-thread bookkeeping.</li>
 * </ul>
 * Every variant returns a shared completed future ({@link AlternativeContext#runNow}, as
 * {@code lock-inline}; the context has its own), so none allocates. The tear-down checks that each
 * variant ran its callback on every call.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
public class IdlePathFloorBenchmark {

    private RendererSyncContext context;
    private RendererSyncContext lockInline;
    private final CasPair casPair = new CasPair();
    private final CasPairOwner casPairOwner = new CasPairOwner();
    private final CasPairOwnerFrame casPairOwnerFrame = new CasPairOwnerFrame();
    private final LockWithFrame lockInlineFrame = new LockWithFrame();

    /** Calls made and callbacks run (package-private so the test can show the tear-down's check fails). */
    long calls;
    long ran;
    private final Runnable callback = () -> ran++;

    @Setup(Level.Trial)
    public void setUp() {
        context = BenchModes.create(BenchModes.OPTIMIZED);
        lockInline = BenchModes.create(BenchModes.LOCK_INLINE);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        context.close();
        lockInline.close();
        if (ran != calls) {
            throw new IllegalStateException(ran + " callbacks ran for " + calls + " calls");
        }
    }

    @Benchmark
    public CompletableFuture<Void> context() {
        calls++;
        return context.invokeAsync(callback);
    }

    @Benchmark
    public CompletableFuture<Void> lockInline() {
        calls++;
        return lockInline.invokeAsync(callback);
    }

    @Benchmark
    public CompletableFuture<Void> casPair() {
        calls++;
        return casPair.invoke(callback);
    }

    @Benchmark
    public CompletableFuture<Void> casPairOwner() {
        calls++;
        return casPairOwner.invoke(callback);
    }

    @Benchmark
    public CompletableFuture<Void> casPairOwnerFrame() {
        calls++;
        return casPairOwnerFrame.invoke(callback);
    }

    @Benchmark
    public CompletableFuture<Void> lockInlineFrame() {
        calls++;
        return lockInlineFrame.invoke(callback);
    }

    /** What a thread is inside, as the context's {@code CallbackFrame} keeps it: one object per thread. */
    static final class Frame {
        private static final ThreadLocal<Frame> FRAMES = ThreadLocal.withInitial(Frame::new);

        Object context;
        int seq;

        static Frame get() {
            return FRAMES.get();
        }

        Object enter(Object ctx) {
            Object previous = context;
            context = ctx;
            seq++;
            return previous;
        }

        void leave(Object outer) {
            context = outer;
        }

        /** Runs {@code callback} inside this thread's frame, marked as {@code owner}'s. */
        static CompletableFuture<Void> runInside(Object owner, Runnable callback) {
            Frame frame = get();
            Object outer = frame.enter(owner);
            try {
                return AlternativeContext.runNow(callback);
            } finally {
                frame.leave(outer);
            }
        }
    }

    /**
     * A serializer's idle call and nothing else: no queue (a call that finds the word taken fails, which
     * this benchmark never does), so what it measures is the idle path's own floor. Each piece is a
     * class of its own rather than a flag, so no variant pays a branch another does not.
     */
    static class CasPair {
        static final VarHandle STATE;
        static final VarHandle OWNER;

        static {
            try {
                MethodHandles.Lookup lookup = MethodHandles.lookup();
                STATE = lookup.findVarHandle(CasPair.class, "state", long.class);
                OWNER = lookup.findVarHandle(CasPair.class, "owner", Thread.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        volatile long state;
        volatile Thread owner;

        final void claim() {
            if (!STATE.compareAndSet(this, 0L, 1L)) {
                throw new IllegalStateException("busy: the idle floor never queues");
            }
        }

        final void release() {
            if (!STATE.compareAndSet(this, 1L, 0L)) {
                throw new IllegalStateException("the floor has no producers");
            }
        }

        CompletableFuture<Void> invoke(Runnable callback) {
            claim();
            try {
                return AlternativeContext.runNow(callback);
            } finally {
                release();
            }
        }
    }

    /** {@link CasPair} with the owner token. */
    static final class CasPairOwner extends CasPair {
        @Override
        CompletableFuture<Void> invoke(Runnable callback) {
            claim();
            OWNER.setOpaque(this, Thread.currentThread());
            try {
                return AlternativeContext.runNow(callback);
            } finally {
                OWNER.setOpaque(this, null);
                release();
            }
        }
    }

    /** {@link CasPairOwner} with the per-thread frame. */
    static final class CasPairOwnerFrame extends CasPair {
        @Override
        CompletableFuture<Void> invoke(Runnable callback) {
            claim();
            OWNER.setOpaque(this, Thread.currentThread());
            try {
                return Frame.runInside(this, callback);
            } finally {
                OWNER.setOpaque(this, null);
                release();
            }
        }
    }

    /** {@code lock-inline}'s call with the context's per-thread frame around the callback. */
    static final class LockWithFrame {
        private final ReentrantLock lock = new ReentrantLock();

        CompletableFuture<Void> invoke(Runnable callback) {
            lock.lock();
            try {
                return Frame.runInside(this, callback);
            } finally {
                lock.unlock();
            }
        }
    }
}
