package dev.synccontext.test;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A test that leaves work behind fails, and its failure says where the work came from: each fixture
 * below is run in a nested JUnit engine, and the failure the user would see is checked.
 */
class LeakReportTest {

    @Test
    void aTestThatLeavesACallbackQueuedFailsNamingTheLineThatSubmittedIt() {
        List<Throwable> failures = NestedRun.failures(LeavesAPostQueued.class);
        assertThat(failures).singleElement().isInstanceOf(AssertionError.class).satisfies(failure -> assertThat(
                failure.getMessage())
                .contains("1 callback(s) still queued at the end of the test")
                .contains("run them (runUntilIdle(), advanceBy(...)) or close their context")
                .contains("at dev.synccontext.test.LeakReportTest$LeavesAPostQueued.leaves(LeakReportTest.java:"
                        + LeavesAPostQueued.SUBMIT_LINE + ")"));
    }

    @Test
    void eachLeakedCallbackIsNamedWithItsOwnSite() {
        List<Throwable> failures = NestedRun.failures(LeavesTwoCallbacksQueued.class);
        assertThat(failures).singleElement().satisfies(failure -> assertThat(failure.getMessage())
                .contains("2 callback(s) still queued")
                .contains("LeakReportTest.java:" + LeavesTwoCallbacksQueued.FIRST_LINE + ")")
                .contains("LeakReportTest.java:" + LeavesTwoCallbacksQueued.SECOND_LINE + ")"));
    }

    @Test
    void aPostThatThrewAndWasNeverLookedAtFailsTheTestNamingItsSubmitSite() {
        List<Throwable> failures = NestedRun.failures(LeavesAFailureUnobserved.class);
        assertThat(failures).singleElement().satisfies(failure -> {
            assertThat(failure.getMessage())
                    .contains("1 failure(s) nobody observed")
                    .contains("a callback of context 'orders' threw java.lang.IllegalStateException: boom")
                    .contains("LeakReportTest.java:" + LeavesAFailureUnobserved.SUBMIT_LINE + ")");
            assertThat(failure.getSuppressed()).singleElement().satisfies(t -> assertThat(t).hasMessage("boom"));
        });
    }

    @Test
    void aTestThatRunsItsWorkAndTakesItsFailuresPasses() {
        assertThat(NestedRun.run(CleansUp.class).getTestsSucceededCount()).isEqualTo(1);
        assertThat(NestedRun.failures(CleansUp.class)).isEmpty();
    }

    @Test
    void aFailingExploringTestPrintsItsSeedAndTheSeedReplaysTheOrder() {
        List<Throwable> failures = NestedRun.failures(FailsWithASeed.class);
        assertThat(failures).singleElement().satisfies(failure -> assertThat(failure.getSuppressed())
                .anySatisfy(note -> assertThat(note.getMessage())
                        .contains("failed with interleaving seed 1234").contains("@SyncContextTest(seed = 1234L)")));
    }

    @Test
    void verifyAfterTheTestIsOffWhenTheTestSaysSo() {
        assertThat(NestedRun.failures(OptsOut.class)).isEmpty();
    }

    // ------------------------------------------------------------------ fixtures (run only by NestedRun)

    @SyncContextTest
    static class LeavesAPostQueued {
        static final int SUBMIT_LINE = 76;

        @Test
        void leaves(SyncContextTestKit kit) {
            kit.newContext("cart").post(() -> { }); // SUBMIT_LINE
        }
    }

    @SyncContextTest
    static class LeavesTwoCallbacksQueued {
        static final int FIRST_LINE = 88;
        static final int SECOND_LINE = 89;

        @Test
        void leaves(SyncContextTestKit kit) {
            RendererSyncContext context = kit.newContext("cart");
            context.post(() -> { }); // FIRST_LINE
            CompletableFuture<Integer> later = context.invokeAsync(() -> 1); // SECOND_LINE: queued behind the post
            assertThat(later).isNotDone();
        }
    }

    @SyncContextTest
    static class LeavesAFailureUnobserved {
        static final int SUBMIT_LINE = 101;

        @Test
        void leaves(SyncContextTestKit kit) {
            RendererSyncContext context = kit.newContext("orders");
            context.post(() -> { throw new IllegalStateException("boom"); }); // SUBMIT_LINE
            kit.runUntilIdle();
        }
    }

    @SyncContextTest
    static class CleansUp {
        @Test
        void cleansUp(SyncContextTestKit kit) {
            RendererSyncContext context = kit.newContext("orders");
            context.post(() -> { throw new IllegalStateException("expected"); });
            context.post(() -> { });
            kit.advanceBy(Duration.ofSeconds(1));
            assertThat(kit.takeFailures()).singleElement().satisfies(t -> assertThat(t).hasMessage("expected"));
        }
    }

    @SyncContextTest(seed = 1234)
    static class FailsWithASeed {
        @Test
        void fails(SyncContextTestKit kit) {
            assertThat(kit.seed()).hasValue(1234);
            throw new AssertionError("the component under test broke");
        }
    }

    @SyncContextTest(verify = false)
    static class OptsOut {
        @Test
        void leaves(SyncContextTestKit kit) {
            kit.newContext("cart").post(() -> { });
        }
    }
}
