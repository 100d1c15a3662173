package dev.synccontext;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;

/**
 * The wait-for graph across contexts, for deadlock detection (docs/DESIGN.md, "Deadlock detection").
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>A cycle throws, on one side at least.</b> A thread inside a context that is about to block
 *       on an {@link Awaited} records its edge here first, then follows the edges: the context it waits
 *       for, that context's owner thread, the context that owner waits for, and so on. If it comes back
 *       to a context it holds itself, the wait could never end and it throws
 *       {@link ContextDeadlockException} instead of blocking. Two threads that close a cycle at once both
 *       record before they look (the map's put and get are sequentially consistent), so at least one of
 *       them sees the other's edge.</li>
 *   <li><b>No false positives.</b> Every edge on the path is read again after its owner was read:
 *       the owner still holds the context, its edge is the same object (it has not woken up and waited
 *       again), and what it waits for still needs the next context ({@link Awaited#neededContext}). A
 *       thread cannot give a context up while it blocks, so such a path is a real cycle. The one
 *       exception is a race with {@code closeNow()}: a node it has claimed but not yet cancelled looks
 *       like a running callback for those nanoseconds.</li>
 *   <li><b>Free when nothing blocks.</b> Edges exist only while a thread blocks; a thread outside any
 *       context records none (nothing can wait on a thread that holds no context). The idle and queued
 *       paths never come here.</li>
 * </ul>
 * A timed wait ({@code get(timeout)}) on a cycle throws too: it could end only by timing out.
 */
final class WaitGraph {

    /** Longer paths are given up on (a cycle among other threads that this one only waits behind). */
    static final int MAX_HOPS = 256;

    private static final ConcurrentHashMap<Thread, Wait> WAITS = new ConcurrentHashMap<>();
    private static final LongAdder RECORDED = new LongAdder();

    private WaitGraph() {
    }

    /** One blocked thread's edge: what it waits on, from inside which context. */
    static final class Wait {
        final Thread thread;
        final Awaited awaited;

        Wait(Thread thread, Awaited awaited) {
            this.thread = thread;
            this.awaited = awaited;
        }
    }

    /**
     * Records that the current thread is about to block on {@code awaited}, when it matters: the thread
     * is inside a context and the wait needs a context. Null if nothing was recorded. Pair with
     * {@link #leave}.
     */
    static @Nullable Wait enter(Awaited awaited) {
        CallbackFrame frame = CallbackFrame.get();
        if (frame.context == null || awaited.neededContext() == null) {
            return null;
        }
        Wait mine = new Wait(frame.thread, awaited);
        WAITS.put(frame.thread, mine);
        RECORDED.increment();
        return mine;
    }

    /**
     * Records the current thread's wait on {@code awaited} whenever the thread is inside a context, even
     * while the wait needs no context yet (a wait recorded through {@link ContextWaits}, whose need grows
     * later). Null if the thread is in no context. Pair with {@link #leave}.
     */
    static @Nullable Wait record(Awaited awaited) {
        CallbackFrame frame = CallbackFrame.get();
        if (frame.context == null) {
            return null;
        }
        Wait mine = new Wait(frame.thread, awaited);
        WAITS.put(frame.thread, mine);
        RECORDED.increment();
        return mine;
    }

    /** Whether {@code wait} is still its thread's recorded wait. */
    static boolean isRecorded(Wait wait) {
        return WAITS.get(wait.thread) == wait;
    }

    /** Records the wait ({@link #enter}) and throws if it closes a cycle (its edge removed first). */
    static @Nullable Wait enterOrThrow(Awaited awaited) {
        Wait mine = enter(awaited);
        if (mine != null) {
            ContextDeadlockException deadlock = deadlock(mine);
            if (deadlock != null) {
                leave(mine);
                throw deadlock;
            }
        }
        return mine;
    }

    static void leave(@Nullable Wait mine) {
        if (mine != null) {
            WAITS.remove(mine.thread, mine);
        }
    }

    /** Whether {@code thread} has a wait recorded now (for tests that order the sides of a cycle). */
    static boolean isWaiting(Thread thread) {
        return WAITS.containsKey(thread);
    }

    /** How many waits were recorded so far (for tests that must prove they exercised the graph). */
    static long recordedWaits() {
        return RECORDED.sum();
    }

    /** The cycle {@code mine} closes, as the exception to throw, or null if it closes none. */
    static @Nullable ContextDeadlockException deadlock(Wait mine) {
        SyncContext first = mine.awaited.neededContext();
        if (first == null) {
            return null;
        }
        List<Wait> path = new ArrayList<>();
        List<SyncContext> held = new ArrayList<>();
        SyncContext ctx = first;
        for (int hop = 0; hop < MAX_HOPS; hop++) {
            Thread owner = ctx.ownerVolatile();
            if (owner == mine.thread) {
                return describe(mine, first, ctx, path, held);
            }
            if (owner == null) {
                return null; // idle, or a drain scheduled: it will run
            }
            Wait theirs = WAITS.get(owner);
            if (theirs == null) {
                return null; // the owner runs (or blocks on something no context runs)
            }
            SyncContext next = theirs.awaited.neededContext();
            if (next == null || ctx.ownerVolatile() != owner || WAITS.get(owner) != theirs) {
                return null; // it moved on meanwhile
            }
            path.add(theirs);
            held.add(ctx);
            ctx = next;
        }
        return null;
    }

    private static ContextDeadlockException describe(Wait mine, SyncContext first, SyncContext heldByMe,
            List<Wait> path, List<SyncContext> held) {
        List<ContextDeadlockException.Side> sides = new ArrayList<>();
        sides.add(side(mine.thread, heldByMe, first));
        for (int i = 0; i < path.size(); i++) {
            SyncContext next = i + 1 < path.size() ? held.get(i + 1) : heldByMe;
            sides.add(side(path.get(i).thread, held.get(i), next));
        }
        return new ContextDeadlockException(message(sides), sides);
    }

    private static ContextDeadlockException.Side side(Thread thread, SyncContext holds, SyncContext waitsOn) {
        List<StackTraceElement> stack = Arrays.asList(thread.getStackTrace());
        String name = thread.getName();
        return new ContextDeadlockException.Side(holds.name, waitsOn.name, name.isEmpty() ? thread.toString() : name,
                ThreadKinds.isVirtual(thread), CallSites.userFrame(stack), stack);
    }

    private static String message(List<ContextDeadlockException.Side> sides) {
        ContextDeadlockException.Side waiter = sides.get(0);
        StringBuilder m = new StringBuilder("Deadlock: ");
        if (sides.size() == 1) {
            m.append("a callback of context '").append(waiter.holds()).append("' on thread '")
                    .append(waiter.threadName()).append("' at ").append(site(waiter))
                    .append(" blocks on work that only context '").append(waiter.waitsOn())
                    .append("' can run, and that context is held by this very callback (the work is queued"
                            + " behind it, or is the callback itself), so it can never run.");
        } else {
            m.append("the callback of context '").append(waiter.holds()).append("' on thread '")
                    .append(waiter.threadName()).append("' at ").append(site(waiter))
                    .append(" waits on context '").append(waiter.waitsOn()).append('\'');
            for (int i = 1; i < sides.size(); i++) {
                ContextDeadlockException.Side s = sides.get(i);
                m.append(", whose callback on thread '").append(s.threadName()).append("' at ").append(site(s))
                        .append(" waits on context '").append(s.waitsOn()).append('\'');
            }
            m.append(": none of them can ever go on.");
        }
        return m.append(" Compose instead of blocking (thenAccept, thenCompose), or use send()/a nested"
                + " invokeAsync to run it now.").toString();
    }

    private static String site(ContextDeadlockException.Side side) {
        StackTraceElement site = side.site();
        return site == null ? "(no application frame)" : site.toString();
    }
}
