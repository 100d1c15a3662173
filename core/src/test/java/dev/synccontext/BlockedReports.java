package dev.synccontext;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

/** An observer that keeps every blocked-callback report it is given, in order, and opens a latch at the first. */
final class BlockedReports implements SyncContextObserver {

    final List<BlockedCallback> reports = new CopyOnWriteArrayList<>();
    final CountDownLatch reported = new CountDownLatch(1);

    @Override
    public void callbackBlocked(BlockedCallback blocked) {
        reports.add(blocked);
        reported.countDown();
    }
}
