package dev.synccontext.stress;

import dev.synccontext.BlockedCallback;
import dev.synccontext.RendererSyncContext;
import dev.synccontext.SyncContextObserver;
import dev.synccontext.CallbackOutcome;
import dev.synccontext.CallbackPath;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/** Counts what a context reports, by path and outcome, and keeps every blocked-callback report. */
final class CountingObserver implements SyncContextObserver {

    private final ConcurrentHashMap<String, AtomicLong> counts = new ConcurrentHashMap<>();
    final List<BlockedCallback> blocked = new CopyOnWriteArrayList<>();
    final List<Throwable> unhandled = new CopyOnWriteArrayList<>();
    final CountDownLatch firstBlocked = new CountDownLatch(1);

    @Override
    public void callbackFinished(RendererSyncContext context, CallbackPath path, CallbackOutcome outcome) {
        counts.computeIfAbsent(path + "/" + outcome, k -> new AtomicLong()).incrementAndGet();
    }

    @Override
    public void unhandledException(RendererSyncContext context, Throwable failure) {
        unhandled.add(failure);
    }

    @Override
    public void callbackBlocked(BlockedCallback report) {
        blocked.add(report);
        firstBlocked.countDown();
    }

    @Override
    public int samplingInterval() {
        return 0;
    }

    long count(CallbackPath path, CallbackOutcome outcome) {
        AtomicLong c = counts.get(path + "/" + outcome);
        return c == null ? 0 : c.get();
    }

    @Override
    public String toString() {
        return counts.toString();
    }
}
