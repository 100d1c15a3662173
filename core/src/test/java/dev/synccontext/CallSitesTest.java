package dev.synccontext;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which frame a deadlock names as a side's site ({@link CallSites#userFrame}): the application's line
 * that called into the wait, even when the stack is another thread's snapshot taken while that thread
 * was still inside the blocking call's first steps (the CI failure this guards: a waiter caught in
 * Reactor's logger set-up was reported at {@code reactor.util.Loggers$ConsoleLoggerFactory}).
 */
class CallSitesTest {

    private static StackTraceElement frame(String className, String method) {
        return new StackTraceElement(className, method, className.substring(className.lastIndexOf('.') + 1) + ".java",
                42);
    }

    private static final StackTraceElement APPLICATION = frame("com.example.Checkout", "lambda$pay$0");

    @Test
    void aParkedWaiterIsNamedAtTheLineThatBlocks() {
        List<StackTraceElement> stack = List.of(frame("jdk.internal.misc.Unsafe", "park"),
                frame("java.util.concurrent.locks.LockSupport", "park"),
                frame("reactor.core.publisher.BlockingSingleSubscriber", "blockingGet"),
                frame("reactor.core.publisher.Mono", "block"), APPLICATION,
                frame(QueuedPost.class.getName(), "run"), frame(Drain.class.getName(), "run"));
        assertThat(CallSites.userFrame(stack)).isEqualTo(APPLICATION);
    }

    @Test
    void aWaiterCaughtInsideWhatItsBlockingCallRunsFirstIsStillNamedAtTheLineThatBlocks() {
        // Frames of a logger library (not the JDK's, not Reactor's) inward of Reactor's own: the snapshot
        // caught the thread there, between recording its wait and parking.
        List<StackTraceElement> stack = List.of(frame("java.lang.ClassLoader", "loadClass"),
                frame("org.slf4j.LoggerFactory", "getLogger"),
                frame("reactor.util.Loggers$Slf4JLoggerFactory", "apply"),
                frame("reactor.util.Loggers", "getLogger"),
                frame("reactor.core.publisher.BlockingSingleSubscriber", "blockingGet"),
                frame("reactor.core.publisher.Mono", "block"), APPLICATION, frame(Drain.class.getName(), "run"));
        assertThat(CallSites.userFrame(stack)).isEqualTo(APPLICATION);
    }

    @Test
    void aJoinInsideACallbackIsNamedAtTheCallbacksLine() {
        List<StackTraceElement> stack = List.of(frame("jdk.internal.misc.Unsafe", "park"),
                frame(QueuedFuture.class.getName(), "join"), APPLICATION,
                frame(SyncContext.class.getName(), "invokeInline"), frame("com.example.Main", "main"));
        assertThat(CallSites.userFrame(stack)).isEqualTo(APPLICATION);
    }

    @Test
    void aStackWithoutAFrameOfTheWaitIsSearchedFromItsInnermostFrame() {
        List<StackTraceElement> stack = List.of(frame("java.lang.Thread", "sleep"), APPLICATION,
                frame("com.example.Main", "main"));
        assertThat(CallSites.userFrame(stack)).isEqualTo(APPLICATION);
    }

    @Test
    void aStackOfInfrastructureAloneHasNoSite() {
        List<StackTraceElement> stack = List.of(frame("java.lang.Thread", "sleep"),
                frame(Drain.class.getName(), "run"), frame("java.lang.Thread", "run"));
        assertThat(CallSites.userFrame(stack)).isNull();
    }
}
