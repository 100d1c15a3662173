package dev.synccontext.durable;

import dev.synccontext.spring.durable.ForwardingStateStore;
import dev.synccontext.spring.durable.HandOffMessage;
import dev.synccontext.spring.durable.NodeLease;
import dev.synccontext.spring.durable.StateStore;
import dev.synccontext.spring.durable.WriteOutcome;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.jspecify.annotations.Nullable;

/**
 * The shared store of the durable tests, with steps of one node's calls changed on purpose. Each switch is off
 * until a test sets it; the one-shot ones turn themselves off once used.
 */
final class RiggedStore extends ForwardingStateStore {

    /** While set, writes, releases and publishes fail as a lost connection does. */
    volatile boolean down;
    /** While set, releases fail as a lost connection does. */
    volatile boolean releaseDown;
    /** The next renewal finds the lease ended (a store restart): the node takes a new one. */
    volatile boolean lapseNextRenewal;
    /** Run once, just before the next write reaches the store, and just after it was answered. */
    volatile @Nullable Runnable beforeNextWrite;
    volatile @Nullable Runnable afterNextWrite;
    /** The next write, once armed, waits (sent, not answered) until let go. */
    volatile boolean slowNextWrite;
    final CountDownLatch inWrite = new CountDownLatch(1);
    final CountDownLatch letWriteGo = new CountDownLatch(1);

    RiggedStore(StateStore delegate) {
        super(delegate);
    }

    private void failIf(boolean failing) {
        if (failing) {
            throw new IllegalStateException("the state store is down (test)");
        }
    }

    @Override
    public boolean release(String handle, long token) {
        failIf(down || releaseDown);
        return super.release(handle, token);
    }

    @Override
    public boolean publish(String toNode, HandOffMessage message) {
        failIf(down);
        return super.publish(toNode, message);
    }

    @Override
    public boolean renewNodeLease(NodeLease lease) {
        if (lapseNextRenewal) {
            lapseNextRenewal = false;
            delegate().releaseNodeLease(lease);
            return false;
        }
        return super.renewNodeLease(lease);
    }

    @Override
    public WriteOutcome write(String handle, long token, byte[] snapshot, Duration idleTimeout) {
        Runnable before = beforeNextWrite;
        beforeNextWrite = null;
        if (before != null) {
            before.run();
        }
        if (slowNextWrite) {
            slowNextWrite = false;
            inWrite.countDown();
            try {
                letWriteGo.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        failIf(down);
        WriteOutcome outcome = super.write(handle, token, snapshot, idleTimeout);
        Runnable after = afterNextWrite;
        afterNextWrite = null;
        if (after != null) {
            after.run();
        }
        return outcome;
    }
}
