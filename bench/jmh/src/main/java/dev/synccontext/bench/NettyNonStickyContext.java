package dev.synccontext.bench;

import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.NonStickyEventExecutorGroup;
import io.netty.util.concurrent.UnorderedThreadPoolEventExecutor;

/**
 * {@code netty-nonsticky}: one of Netty's ordered executors per context
 * ({@code NonStickyEventExecutorGroup.next()}, netty-common, Spring Boot's version), all over one
 * shared {@code UnorderedThreadPoolEventExecutor} of CPUs-many daemon threads. Each executor keeps an
 * unbounded MPSC queue of array chunks and a state word; the first task into an idle executor submits
 * the executor itself to the pool, which then runs up to 1,024 tasks per turn before it resubmits
 * itself. Every call is a hand-off, even on an idle context (there is no inline path).
 *
 * <p>Guarantee (see {@link AlternativeContext}): the ordered executor runs its tasks one at a time in
 * queue order; a nested call runs at once because Netty's {@code inEventLoop()} is true on the thread
 * running the executor's turn, so callbacks go to it unwrapped (a post allocates nothing of the
 * adapter's).
 */
final class NettyNonStickyContext extends HandOffContext {

    // UnorderedThreadPoolEventExecutor is deprecated in Netty 4.2, but it is the pool the comparison names
    // (its executors are unordered, which the group requires of what it wraps).
    @SuppressWarnings("deprecation")
    private static final NonStickyEventExecutorGroup GROUP = new NonStickyEventExecutorGroup(
            new UnorderedThreadPoolEventExecutor(Runtime.getRuntime().availableProcessors(),
                    new DefaultThreadFactory("netty-nonsticky", true)));

    private final EventExecutor ordered;

    NettyNonStickyContext() {
        super("netty-nonsticky");
        ordered = GROUP.next();
    }

    /** The peer's own per-context object, for the footprint report. */
    static Object bareExecutor() {
        return GROUP.next();
    }

    @Override
    void handOff(Runnable task) {
        ordered.execute(task);
    }

    @Override
    Runnable asTask(Runnable callback) {
        return callback;
    }

    @Override
    public boolean checkAccess() {
        return ordered.inEventLoop();
    }
}
