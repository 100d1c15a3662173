package dev.synccontext;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A blocking wait from inside a context that could never end, thrown at once instead of hanging: the
 * work waited for can only run on a context that is held by the waiting callback itself, or by a
 * callback that is (through any number of contexts) waiting on the waiter's context.
 *
 * <p>It carries every side of the cycle, the waiter first: which context each side holds, which it
 * waits on, its thread, its stack when the cycle was found, and its <em>site</em> (the line that
 * blocks: the first frame outward of the wait's own frames that belongs neither to the JDK, nor to
 * Reactor, nor to this library). For a callback that
 * waits on its own context, {@link #sides()} has one element and {@link #other()} is the waiter.
 *
 * <p>Which waits are seen: {@code join}/{@code get} on a future that a context returned from a queued
 * {@code invokeAsync*}, and on futures derived from it ({@code thenApply}, {@code handle},
 * {@code thenApplyAsync(…, context)}, ...); a {@code send} that waits for its turn; and waits that a
 * library records through {@link ContextWaits} (a Reactor {@code block()}, with synccontext-reactor). A
 * wait on a future the context did not hand out (for example
 * {@code CompletableFuture.supplyAsync(…, context)}) is not seen and still hangs. See docs/DESIGN.md,
 * "Deadlock detection".
 */
public final class ContextDeadlockException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /**
     * One waiting side of the cycle.
     *
     * @param holds the name of the context this side holds (runs a callback of)
     * @param waitsOn the name of the context whose work it waits for
     * @param threadName its thread
     * @param virtualThread whether that thread is virtual
     * @param site the line that blocks (the first frame outside the JDK, Reactor and this library,
     *     outward of the wait's own frames), or null if none
     * @param stack the thread's stack when the cycle was found, innermost first
     */
    public record Side(String holds, String waitsOn, String threadName, boolean virtualThread,
            @Nullable StackTraceElement site, List<StackTraceElement> stack) {

        public Side {
            stack = List.copyOf(stack);
        }
    }

    private final transient List<Side> sides;

    ContextDeadlockException(String message, List<Side> sides) {
        super(message);
        this.sides = List.copyOf(sides);
    }

    /** Every side of the cycle, the waiter (the thread this was thrown on) first. */
    public List<Side> sides() {
        return sides;
    }

    /** The side that was about to block: the thread this was thrown on. */
    public Side waiter() {
        return sides.get(0);
    }

    /**
     * The side the waiter waits on: the holder of the context it waits for (the waiter itself when it
     * waits on its own context).
     */
    public Side other() {
        return sides.size() > 1 ? sides.get(1) : sides.get(0);
    }
}
