package dev.synccontext.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The adapter rules the scenarios do not check on their own, for each peer: a post never runs inside
 * the call that made it, a nested {@code invokeAsync} runs at once, and {@code checkAccess()} is true
 * inside a callback only.
 */
class HandOffContextRulesTest {

    @ParameterizedTest
    @ValueSource(strings = {"netty-nonsticky", "kotlinx-limited", "grpc-sync", "vertx-worker"})
    void aPostOnAnIdleContextRunsAfterTheCallReturnedAndOnAnotherThread(String mode) throws Exception {
        RendererSyncContext context = BenchModes.create(mode);
        try {
            CountDownLatch returned = new CountDownLatch(1);
            AtomicBoolean ranAfterReturn = new AtomicBoolean();
            AtomicReference<Thread> ranOn = new AtomicReference<>();
            CountDownLatch ran = new CountDownLatch(1);
            context.post(() -> {
                ranOn.set(Thread.currentThread());
                try {
                    // If the post ran inline this would wait out the timeout and report false.
                    ranAfterReturn.set(returned.await(5, TimeUnit.SECONDS));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                ran.countDown();
            });
            returned.countDown();
            assertThat(ran.await(10, TimeUnit.SECONDS)).as("the post ran").isTrue();
            assertThat(ranAfterReturn).as("it ran after post() returned").isTrue();
            assertThat(ranOn.get()).isNotSameAs(Thread.currentThread());
        } finally {
            context.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"netty-nonsticky", "kotlinx-limited", "grpc-sync", "vertx-worker"})
    void aNestedInvokeAsyncRunsAtOnceAndCheckAccessIsTrueInsideOnly(String mode) throws Exception {
        RendererSyncContext context = BenchModes.create(mode);
        try {
            assertThat(context.checkAccess()).as("outside").isFalse();
            CompletableFuture<Boolean> nestedRanAtOnce = new CompletableFuture<>();
            AtomicBoolean insideSeen = new AtomicBoolean();
            context.post(() -> {
                insideSeen.set(context.checkAccess());
                AtomicBoolean inner = new AtomicBoolean();
                CompletableFuture<Void> f = context.invokeAsync(() -> inner.set(true));
                nestedRanAtOnce.complete(inner.get() && f.isDone());
            });
            assertThat(nestedRanAtOnce.get(10, TimeUnit.SECONDS)).as("nested call ran before invokeAsync returned")
                    .isTrue();
            assertThat(insideSeen).as("checkAccess inside").isTrue();
            assertThat(context.invokeAsync(() -> context.checkAccess()).get(10, TimeUnit.SECONDS))
                    .as("checkAccess inside an outside invokeAsync").isTrue();
            assertThat(context.checkAccess()).as("outside again").isFalse();
        } finally {
            context.close();
        }
    }
}
