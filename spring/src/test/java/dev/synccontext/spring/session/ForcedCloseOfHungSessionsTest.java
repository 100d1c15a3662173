package dev.synccontext.spring.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import dev.synccontext.registry.ContextTemplate;
import dev.synccontext.registry.SyncContextRegistry;

/**
 * Rule: sessions that expire while a callback of theirs hangs are force-closed without holding a
 * thread each. 50 sessions expire (registry release, as the session listener does), each with a
 * callback hung until the end of the test and work queued behind it; with the default executor and
 * a 100 ms shutdown timeout every forced close completes, the queued work is cancelled, other sessions
 * keep working, and no thread is left inside {@code closeNow()} or the registry's forced close.
 */
class ForcedCloseOfHungSessionsTest {

    private static final int HUNG = 50;

    private final CountDownLatch hang = new CountDownLatch(1);

    @AfterEach
    void releaseTheHungCallbacks() {
        hang.countDown();
    }

    @Test
    void expiredSessionsWithHungCallbacksAreForceClosedWithoutParkingAThreadEach() throws Exception {
        SyncContextRegistry registry = new SyncContextRegistry(new ContextTemplate(
                RendererSyncContext.defaultExecutor(), "elastic", 64, 0, Duration.ofSeconds(2),
                Duration.ofMillis(100), null));
        List<RendererSyncContext> expiring = new ArrayList<>();
        List<CompletableFuture<Void>> queuedBehind = new ArrayList<>();
        CountDownLatch allHung = new CountDownLatch(HUNG);
        for (int i = 0; i < HUNG; i++) {
            RendererSyncContext session = registry.create("session");
            session.post(() -> {
                allHung.countDown();
                try {
                    hang.await(60, TimeUnit.SECONDS); // hung for the rest of the test
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            queuedBehind.add(session.invokeAsync(() -> { }));
            session.post(() -> { });
            expiring.add(session);
        }
        assertThat(allHung.await(10, TimeUnit.SECONDS)).as("all %d callbacks hung, each on a thread", HUNG).isTrue();

        expiring.forEach(registry::release); // the sessions expire

        await().atMost(Duration.ofSeconds(10)).until(() -> registry.forcedCloses() == HUNG);
        assertThat(registry.cancelledPosts()).isEqualTo(HUNG);
        assertThat(queuedBehind).allSatisfy(f -> assertThat(f).isCancelled());
        assertThat(registry.closingContexts()).isZero();
        assertThat(threadsInside("closeNow", "forceIfRunning"))
                .as("threads parked in closeNow() or the forced close").isEmpty();
        assertThat(hang.getCount()).as("the hung callbacks are still hung").isEqualTo(1);

        // Other sessions keep working meanwhile.
        List<CompletableFuture<Integer>> work = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            RendererSyncContext other = registry.create("session");
            for (int j = 0; j < 50; j++) {
                int value = j;
                work.add(other.invokeAsync(() -> value));
                other.post(() -> { });
            }
        }
        CompletableFuture.allOf(work.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
        registry.close();
    }

    /** Names of live threads with a frame of one of {@code methods} (in this library) on their stack. */
    private static List<String> threadsInside(String... methods) {
        List<String> found = new ArrayList<>();
        Thread.getAllStackTraces().forEach((thread, stack) -> {
            for (StackTraceElement frame : stack) {
                if (frame.getClassName().startsWith("dev.synccontext")
                        && Arrays.asList(methods).contains(frame.getMethodName())) {
                    found.add(thread.getName() + " in " + frame);
                    break;
                }
            }
        });
        return found;
    }
}
