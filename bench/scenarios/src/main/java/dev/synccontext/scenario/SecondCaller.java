package dev.synccontext.scenario;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The other thread of the two-thread scenarios: daemon threads from one JVM-wide cached pool, so a
 * scenario invocation does not pay a thread start and concurrent invocations do not wait for each
 * other. Idle threads end after a minute. Deliberately not the context's executor, so a blocked
 * caller never takes the thread a drain needs.
 */
final class SecondCaller {

    private static final AtomicInteger NEXT_ID = new AtomicInteger();
    private static final ExecutorService THREADS = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "synccontext-scenario-caller-" + NEXT_ID.incrementAndGet());
        thread.setDaemon(true);
        return thread;
    });

    private SecondCaller() {
    }

    static <T> Future<T> start(Callable<T> work) {
        return THREADS.submit(work);
    }
}
