package dev.synccontext.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * The baseline hops through the executor it was given. {@code CompletableFuture}'s async methods swap
 * {@link ForkJoinPool#commonPool()} for a new thread per task when the common pool's parallelism is
 * below 2 (machines with 2 CPUs or fewer, such as CI's), which once turned every baseline hop into a
 * thread start. On larger machines this test passes either way; on a 2-CPU machine (or with
 * {@code -Djava.util.concurrent.ForkJoinPool.common.parallelism=1}) it fails without the fix.
 */
class BaselineHopTargetTest {

    @Test
    void queuedCallbacksOfTheDefaultBaselineRunOnTheCommonPoolNotOnAThreadPerTask() throws Exception {
        BaselineSyncContext ctx = new BaselineSyncContext();
        CompletableFuture<Thread> ranOn = new CompletableFuture<>();
        ctx.post(() -> ranOn.complete(Thread.currentThread()));
        Thread thread = ranOn.get(10, TimeUnit.SECONDS);
        assertThat(thread)
                .as("a posted callback ran on %s; common pool parallelism is %d", thread.getName(),
                        ForkJoinPool.getCommonPoolParallelism())
                .isInstanceOf(ForkJoinWorkerThread.class);
        assertThat(((ForkJoinWorkerThread) thread).getPool()).isSameAs(ForkJoinPool.commonPool());
        ctx.close();
    }
}
