package dev.synccontext;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The queue half of a context: an intrusive multi-producer, single-consumer linked queue of
 * {@link QueuedCallback} nodes after Dmitry Vyukov's design. It is the superclass of
 * {@link SyncContext} rather than an object of its own, so that a context and its (empty) queue are
 * one small object. The consumer end ({@link OwnerSide#head}) lives a cache line away from the
 * producer end ({@link #tail}), see {@link OwnerSide}.
 *
 * <h2>Rules of use</h2>
 * <ul>
 *   <li>{@link #swapTail} and {@link #link} may be called by any thread, and cost one atomic
 *       exchange: the producer swaps its node in as the tail, then links the previous tail to it (or,
 *       when the queue was empty, publishes it as the head).</li>
 *   <li>{@link #takeAfter}, {@link #publishTaken}, {@link #poll} and {@link #forgetTakenNodes} belong
 *       to the context's owner alone, and a node is only taken when its reservation is counted: so
 *       taking never returns null, and instead waits the few instructions between a producer's
 *       exchange and its link. Every node taken is published before ownership can pass on.</li>
 *   <li>The owner takes nodes without any atomic: the node it took last stays behind as the dummy the
 *       next one links to. When a drain runs dry it drops that dummy with one CAS on the tail, so an
 *       idle context keeps no node (and never had a stub).</li>
 * </ul>
 * Ownership passes between threads only through the context's state word (a CAS), which orders the
 * owner-only fields here for the next owner.
 */
abstract class CallbackQueue extends OwnerSidePadding {

    private static final int SPINS_BEFORE_YIELD = 64;

    private static final VarHandle HEAD;
    private static final VarHandle TAIL;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            HEAD = lookup.findVarHandle(OwnerSide.class, "head", QueuedCallback.class);
            TAIL = lookup.findVarHandle(CallbackQueue.class, "tail", QueuedCallback.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Producer end; exchanged by producers, CAS-ed to null by the owner when it drops the dummy. */
    @SuppressWarnings("unused") // Accessed through TAIL.
    private @Nullable QueuedCallback<?> tail;

    /**
     * A producer's first step: swaps {@code node} in as the tail. The node is in the queue's order from
     * here on, but nobody can reach it until {@link #link} publishes it.
     *
     * @return the previous tail, to hand to {@link #link}; null if the queue was empty
     */
    final QueuedCallback<?> swapTail(QueuedCallback<?> node) {
        return (QueuedCallback<?>) TAIL.getAndSet(this, node);
    }

    /** A producer's second step: links {@code node} after {@code previous} (or publishes it as the head). */
    final void link(QueuedCallback<?> previous, QueuedCallback<?> node) {
        if (previous == null) {
            HEAD.setRelease(this, node);
        } else {
            previous.setNextRelease(node);
        }
    }

    /**
     * Where the owner takes from: the node it took last (still the queue's dummy), or null if it took
     * none since the queue was last empty. Owner-only.
     */
    final @Nullable QueuedCallback<?> lastTaken() {
        return headTaken ? head : null;
    }

    /**
     * Takes the node after {@code lastTaken} (after null: the first node) and writes nothing: the owner
     * keeps its position in a local variable while it works through the nodes it has counted, and
     * publishes it with {@link #publishTaken} before it looks at the state again, so a run of callbacks
     * does not write to the context's own fields, which producers keep changing, once per callback. Only
     * called for a node whose reservation the owner has counted, so it waits (briefly) for a producer
     * that reserved but has not linked yet, rather than return null. The nodes taken stay linked until
     * then, the last one as the dummy that the next node links to, so taking needs no atomic (Vyukov's
     * non-intrusive trick, applied to intrusive nodes).
     */
    final QueuedCallback<?> takeAfter(@Nullable QueuedCallback<?> lastTaken) {
        QueuedCallback<?> next;
        if (lastTaken == null) {
            for (int spins = 0; (next = (QueuedCallback<?>) HEAD.getAcquire(this)) == null; spins++) {
                backOff(spins);
            }
        } else {
            for (int spins = 0; (next = lastTaken.nextAcquire()) == null; spins++) {
                backOff(spins);
            }
        }
        return next;
    }

    /**
     * The owner took every node up to {@code lastTaken} (null: none): that node becomes the head (the
     * dummy), and the links of the nodes before it are cleared, so that a future the user keeps does not
     * retain the nodes behind it. Head first, then the links: a {@code closeNow()} walk that finds a link
     * gone finds the new head (and a walk that starts from the head before this call finds the links
     * intact up to it).
     */
    @SuppressWarnings("NullAway") // every node from the old head up to lastTaken is linked to the next
    final void publishTaken(@Nullable QueuedCallback<?> lastTaken) {
        if (lastTaken == null) {
            return;
        }
        QueuedCallback<?> from = head; // the old dummy, or the first node, taken in this run
        if (headTaken && from == lastTaken) {
            return;
        }
        HEAD.setRelease(this, lastTaken);
        headTaken = true;
        for (QueuedCallback<?> node = from; node != lastTaken;) {
            QueuedCallback<?> next = node.nextAcquire();
            node.clearNextRelease();
            node = next;
        }
    }

    /** Takes the next node and publishes it at once: {@link #takeAfter} and {@link #publishTaken} in one. */
    final QueuedCallback<?> poll() {
        QueuedCallback<?> node = takeAfter(lastTaken());
        publishTaken(node);
        return node;
    }

    /**
     * The count says the queue is empty: drop the dummy, so an idle context retains no node. False if
     * a producer swapped the tail after it meanwhile; its node will be linked to the dummy, which then
     * stays.
     */
    final boolean forgetTakenNodes() {
        if (!headTaken) {
            return true;
        }
        QueuedCallback<?> dummy = head;
        // Clear head before giving the tail up: a producer that then finds the queue empty
        // publishes its node as the new head, and must not be overwritten by this store.
        HEAD.setRelease(this, null);
        headTaken = false;
        if (TAIL.compareAndSet(this, dummy, null)) {
            return true;
        }
        HEAD.setRelease(this, dummy);
        headTaken = true;
        return false;
    }

    /**
     * {@code closeNow()}'s walk, by a thread that need not own the context: calls {@code visitor} on
     * every node from the owner's current position up to the tail as it is on entry, while the owner
     * may still be taking nodes. The visitor claims each node (see {@link QueuedCallback}), so a node
     * seen by both is decided once. Nodes linked after the tail was read here are not visited: their
     * producers swapped them in after the context was force-closed, and see that before they link them
     * (the caller of this method marks the context force-closed first, and the tail exchange and that
     * mark are both sequentially consistent, so one of the two sides sees the other).
     *
     * <p>Where the walk finds no link it either waits for a producer that swapped the tail but has not
     * linked yet (a few instructions), or finds that the owner took the node and cleared its link, in
     * which case the owner's head is further on and the walk continues from there.
     */
    final void visitQueued(Consumer<QueuedCallback<?>> visitor) {
        QueuedCallback<?> last = (QueuedCallback<?>) TAIL.getVolatile(this);
        if (last == null) {
            return;
        }
        QueuedCallback<?> node = (QueuedCallback<?>) HEAD.getAcquire(this);
        int spins = 0;
        for (;;) {
            if (node == null) {
                // The owner is dropping its dummy (it took everything) or a producer is about to
                // publish the first node of an emptied queue.
                if (TAIL.getVolatile(this) == null) {
                    return;
                }
                backOff(spins++);
                node = (QueuedCallback<?>) HEAD.getAcquire(this);
                continue;
            }
            visitor.accept(node);
            if (node == last) {
                return;
            }
            QueuedCallback<?> next = node.nextAcquire();
            while (next == null) {
                if (TAIL.getVolatile(this) == node) {
                    return; // the end: we went past 'last' by following the owner's head
                }
                QueuedCallback<?> ownerHead = (QueuedCallback<?>) HEAD.getAcquire(this);
                if (ownerHead != node && spins > SPINS_BEFORE_YIELD) {
                    // The owner took this node and cleared its link (or it is behind us: then the
                    // visitor sees some nodes twice, which claiming makes harmless).
                    next = ownerHead;
                    break;
                }
                backOff(spins++);
                next = node.nextAcquire();
            }
            spins = 0;
            node = next;
        }
    }

    static void backOff(int spins) {
        if (spins < SPINS_BEFORE_YIELD) {
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
    }
}
