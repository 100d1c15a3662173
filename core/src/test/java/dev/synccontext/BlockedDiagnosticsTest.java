package dev.synccontext;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

/**
 * The blocked-callback report names the culprit: among 1,000 busy contexts one callback blocks (held on
 * a latch), and exactly one report comes, within the threshold and the watchdog's ticks, naming that
 * context, its scope, the callback's source line, the thread kind, its queue wait and the stack that
 * submitted it; a Flight Recorder recording taken meanwhile holds the event with the blocked stack, the
 * sampled queue waits, and the work a {@code closeNow()} dropped.
 */
class BlockedDiagnosticsTest {

    private static final int CONTEXTS = 1_000;
    private static final int BLOCKED = 537;
    /** Long enough that a trivial callback descheduled on a loaded machine (load 30 on 2 cores) is not blocked. */
    private static final Duration THRESHOLD = Duration.ofSeconds(1);
    /** The watchdog's tick for this threshold (a quarter of it; smaller if another test asked for less). */
    private static final long TICK_MILLIS = THRESHOLD.toMillis() / 4;
    /**
     * What a loaded 2-core machine (six builds at once) adds to the watchdog's wake-ups and to the first
     * report's one-time class loading: measured 40-390 ms there.
     */
    private static final long SCHEDULING_ALLOWANCE_MILLIS = 750;

    @Test
    void oneBlockedCallbackAmongAThousandContextsIsReportedOnceByNameAndLineOnPlatformThreads() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            runAThousand(pool, false);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    @EnabledForJreRange(min = JRE.JAVA_21)
    void oneBlockedCallbackAmongAThousandContextsIsReportedOnceByNameAndLineOnVirtualThreads() throws Exception {
        ExecutorService virtual = (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor")
                .invoke(null);
        try {
            runAThousand(virtual, true);
        } finally {
            virtual.shutdownNow();
        }
    }

    private void runAThousand(Executor executor, boolean virtual) throws Exception {
        List<BlockedCallback> reports = new CopyOnWriteArrayList<>();
        CountDownLatch reported = new CountDownLatch(1);
        CountDownLatch reportedTwice = new CountDownLatch(2);
        AtomicLong reportedAt = new AtomicLong();
        SyncContextObserver observer = new SyncContextObserver() {
            @Override
            public void callbackBlocked(BlockedCallback blocked) {
                reportedAt.compareAndSet(0, System.nanoTime());
                reports.add(blocked);
                reported.countDown();
                reportedTwice.countDown();
            }

            @Override
            public int samplingInterval() {
                return 16;
            }
        };
        RendererSyncContext.Builder builder = RendererSyncContext.builder().scope("session").executor(executor)
                .blockedThreshold(THRESHOLD).observer(observer).submitSiteSampling(1);
        List<RendererSyncContext> contexts = new ArrayList<>();
        String prefix = "session-" + (virtual ? "v" : "p") + "-";
        for (int i = 0; i < CONTEXTS; i++) {
            contexts.add(builder.name(prefix + i).build());
        }
        Path dump = Files.createTempFile("synccontext-blocked", ".jfr");
        try (Recording recording = new Recording()) {
            recording.enable("dev.synccontext.BlockedCallback");
            recording.enable("dev.synccontext.QueueWait");
            recording.enable("dev.synccontext.ContextClosedWithDroppedWork").withStackTrace();
            recording.start();

            CountDownLatch release = new CountDownLatch(1);
            AtomicLong startedAt = new AtomicLong();
            AtomicInteger blockingLine = new AtomicInteger();
            RendererSyncContext culprit = contexts.get(BLOCKED);
            culprit.post(() -> {
                startedAt.set(System.nanoTime());
                blockingLine.set(new Throwable().getStackTrace()[0].getLineNumber() + 1);
                Occupier.awaitUninterruptibly(release);
            });
            try {
                // Every other context busy meanwhile (short queued callbacks, rounds over all of them),
                // before the report and after it, while the culprit stays blocked.
                for (int round = 0; round < 3; round++) {
                    runRound(contexts, culprit);
                }
                assertThat(reported.await(10, TimeUnit.SECONDS)).as("a report within 10 s").isTrue();
                for (int round = 0; round < 3; round++) {
                    runRound(contexts, culprit);
                }
                // Still blocked for two more thresholds: no second report, for it or any other.
                assertThat(reportedTwice.await(2 * THRESHOLD.toMillis(), TimeUnit.MILLISECONDS))
                        .as("a second report").isFalse();
            } finally {
                release.countDown();
            }
            culprit.invokeAsync(() -> { }).get(10, TimeUnit.SECONDS);

            assertThat(reports).as("reports among %s contexts", CONTEXTS).hasSize(1);
            BlockedCallback report = reports.get(0);
            long afterMillis = TimeUnit.NANOSECONDS.toMillis(reportedAt.get() - startedAt.get());
            System.out.printf("%s threads: reported %d ms after the callback started, as running for %d ms"
                    + " (threshold %d ms, tick %d ms)%n", virtual ? "virtual" : "platform", afterMillis,
                    report.runningFor().toMillis(), THRESHOLD.toMillis(), TICK_MILLIS);
            assertThat(afterMillis).as("ms from start to report").isGreaterThanOrEqualTo(THRESHOLD.toMillis())
                    .isLessThanOrEqualTo(THRESHOLD.toMillis() + TICK_MILLIS + SCHEDULING_ALLOWANCE_MILLIS);
            assertThat(report.contextName()).isEqualTo(prefix + BLOCKED);
            assertThat(report.scope()).isEqualTo("session");
            assertThat(report.virtualThread()).isEqualTo(virtual);
            assertThat(report.callbackSite()).isNotNull();
            assertThat(report.callbackSite().getClassName()).isEqualTo(BlockedDiagnosticsTest.class.getName());
            assertThat(report.callbackSite().getMethodName()).startsWith("lambda$runAThousand$");
            assertThat(report.callbackSite().getLineNumber()).isEqualTo(blockingLine.get());
            assertThat(report.queuedFor()).as("queue wait, recorded with the submit site").isNotNull();
            assertThat(report.submitStack()).as("the stack that posted it")
                    .anySatisfy(f -> assertThat(f.getMethodName()).isEqualTo("runAThousand"));
            assertThat(report.stack()).anySatisfy(f -> assertThat(f.getMethodName()).isEqualTo("awaitUninterruptibly"));
            String line = WatchdogReport.message(report, THRESHOLD.toNanos());
            assertThat(line).contains("'" + prefix + BLOCKED + "'", "(scope session)", report.callbackSite().toString(),
                    virtual ? "on virtual thread" : "on platform thread", "queued for ", "Submitted at:");

            // Work dropped by closeNow(): queued behind a callback that holds the context.
            RendererSyncContext dropping = contexts.get(0);
            try (Occupier occupier = Occupier.occupy(dropping)) {
                dropping.post(() -> { });
                dropping.invokeAsync(() -> { });
                assertThat(dropping.closeNow()).hasSize(1);
            }

            recording.stop();
            recording.dump(dump);
            List<RecordedEvent> events = RecordingFile.readAllEvents(dump);
            List<RecordedEvent> blockedEvents = events.stream()
                    .filter(e -> e.getEventType().getName().equals("dev.synccontext.BlockedCallback"))
                    .filter(e -> (prefix + BLOCKED).equals(e.getString("context"))).toList();
            assertThat(blockedEvents).hasSize(1);
            RecordedEvent event = blockedEvents.get(0);
            assertThat(event.getString("scope")).isEqualTo("session");
            assertThat(event.getString("callbackSite")).isEqualTo(report.callbackSite().toString());
            assertThat(event.getString("stack")).contains("awaitUninterruptibly")
                    .contains(BlockedDiagnosticsTest.class.getName());
            assertThat(event.getString("submitStack")).contains("runAThousand");
            assertThat(event.getBoolean("virtualThread")).isEqualTo(virtual);
            assertThat(event.getDuration("runningFor")).isGreaterThanOrEqualTo(THRESHOLD);
            assertThat(events).as("sampled queue waits of these contexts").anySatisfy(e -> {
                assertThat(e.getEventType().getName()).isEqualTo("dev.synccontext.QueueWait");
                assertThat(e.getString("context")).startsWith(prefix);
            });
            assertThat(events).as("the dropped work").anySatisfy(e -> {
                assertThat(e.getEventType().getName()).isEqualTo("dev.synccontext.ContextClosedWithDroppedWork");
                assertThat(e.getString("context")).isEqualTo(prefix + 0);
                assertThat(e.getInt("dropped")).isEqualTo(2);
                assertThat(e.getInt("postsReturned")).isEqualTo(1);
                assertThat(e.getStackTrace()).isNotNull();
            });
        } finally {
            Files.deleteIfExists(dump);
            contexts.forEach(RendererSyncContext::closeNow);
        }
    }

    /** One short queued callback on every context but the culprit; returns once all have run. */
    private static void runRound(List<RendererSyncContext> contexts, RendererSyncContext culprit) throws Exception {
        List<CompletableFuture<Void>> done = new ArrayList<>(contexts.size());
        for (RendererSyncContext ctx : contexts) {
            if (ctx != culprit) {
                CompletableFuture<Void> f = new CompletableFuture<>();
                ctx.post(() -> f.complete(null));
                done.add(f);
            }
        }
        CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
    }

    @Test
    void withoutSubmitSiteSamplingAReportHasNoSubmitStackAndAnInlineCallbackWasNeverQueued() throws Exception {
        BlockedReports observer = new BlockedReports();
        RendererSyncContext ctx = RendererSyncContext.builder().name("plain").blockedThreshold(Duration.ofMillis(50))
                .observer(observer).build();
        ctx.invokeAsync(() -> Occupier.awaitUninterruptibly(observer.reported)); // inline, on this thread
        BlockedCallback report = observer.reports.get(0);
        assertThat(report.scope()).isNull();
        assertThat(report.submitStack()).isEmpty();
        assertThat(report.queuedFor()).isEqualTo(Duration.ZERO);
        assertThat(report.virtualThread()).isFalse();
        assertThat(report.callbackSite().getMethodName())
                .startsWith("lambda$withoutSubmitSiteSamplingAReportHasNoSubmitStack");
        assertThat(WatchdogReport.message(report, 50_000_000)).doesNotContain("scope").doesNotContain("Submitted at");
    }
}
