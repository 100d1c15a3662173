package dev.synccontext;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.testing.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flight Recorder costs nothing until a recording is started, and its events still reach a recording
 * started at any time. Each case runs in a fresh child JVM ({@link FirstCloseProbe}, the same java
 * binary and class path), because only the first use in a JVM shows the cost: before, the first
 * {@code closeNow()} that dropped work loaded and registered the event classes, and much of
 * {@code jdk.jfr} with them, on the caller's thread (140-820 ms, every later call 0.1 ms).
 *
 * <p>In the fast tier although it starts JVMs (about 6 s): what it guards differs by JDK (the register
 * deadlock is Java 17's), so it runs on Java 17 and again on Java 25.
 */
class FlightRecorderFirstUseTest {

    private static final long LIMIT_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final int TRIES = 5;

    @TempDir
    Path dir;

    /**
     * Each try is a fresh JVM; no event class may be touched in any, and one of up to {@value #TRIES}
     * must return within the limit: on a 2-CPU machine shared with other builds a child can be
     * descheduled (or slowed, its thread's CPU time too) by tens of milliseconds in the middle of the
     * call, which is not the call's cost. Before the change no try came near the limit (140-820 ms of
     * wall time, the thread's CPU time as much).
     */
    @Test
    void theFirstCloseNowInAFreshJvmReturnsWithinTenMillisAndTouchesNoEventClass() throws Exception {
        List<String> walls = new ArrayList<>();
        for (int attempt = 1; attempt <= TRIES; attempt++) {
            Path classLog = dir.resolve("classes-" + attempt + ".log");
            List<String> lines = run("-Xlog:class+load=info:file=" + classLog, FirstCloseProbe.class.getName(),
                    "fresh");

            long[] first = firstClose(lines);
            System.out.printf("first closeNow in a fresh JVM (try %d): %.2f ms wall, %.2f ms CPU%n", attempt,
                    first[0] / 1e6, first[1] / 1e6);
            List<String> loaded = Files.readAllLines(classLog);
            List<String> byFirstClose = loaded.subList(0,
                    indexOf(loaded, FirstCloseProbe.FirstCloseDone.class.getName()));
            assertThat(byFirstClose).as("classes loaded up to the end of the first closeNow()")
                    .noneMatch(l -> l.contains("Event source:") && l.contains("dev.synccontext."))
                    .noneMatch(l -> l.contains("jdk.jfr.internal.MetadataRepository"));
            walls.add(String.format("%.2f ms", first[0] / 1e6));
            if (first[0] < LIMIT_NANOS) {
                return;
            }
        }
        throw new AssertionError("the first closeNow() took 10 ms or more of wall time in every try: " + walls);
    }

    @Test
    void aRecordingStartedAfterTheFirstCloseNowGetsTheDroppedWorkEvent() throws Exception {
        List<String> lines = run(FirstCloseProbe.class.getName(), "fresh");

        assertThat(lines).as("events of the recording started after the first close")
                .contains("EVENT dev.synccontext.ContextClosedWithDroppedWork after-recording-started 2")
                .noneMatch(l -> l.startsWith("EVENT") && l.contains(" first "));
    }

    @Test
    void aRecordingRunningFromJvmStartGetsTheEventAndTheWatchdogRegisteredTheClassesOffTheCaller()
            throws Exception {
        List<String> lines = run("-XX:StartFlightRecording:name=probe", FirstCloseProbe.class.getName(), "started");

        assertThat(lines).as("the event types registered by the watchdog, before any event was emitted")
                .contains("REGISTERED_OFF_CALLER");
        long[] first = firstClose(lines);
        System.out.printf("first closeNow with a recording running: %.2f ms wall, %.2f ms CPU%n", first[0] / 1e6,
                first[1] / 1e6);
        assertThat(lines).contains("EVENT dev.synccontext.ContextClosedWithDroppedWork while-recording 2");
    }

    private static long[] firstClose(List<String> lines) {
        String line = lines.stream().filter(l -> l.startsWith("FIRST_CLOSE ")).findFirst()
                .orElseThrow(() -> new AssertionError("no FIRST_CLOSE line in " + lines));
        String[] parts = line.split(" ");
        return new long[] {Long.parseLong(parts[1]), Long.parseLong(parts[2])};
    }

    private static int indexOf(List<String> loaded, String needle) {
        for (int i = 0; i < loaded.size(); i++) {
            if (loaded.get(i).contains(needle)) {
                return i;
            }
        }
        throw new AssertionError("never loaded: " + needle);
    }

    /** Runs the probe in a child JVM and returns its output once it has exited. */
    private static List<String> run(String... args) throws Exception {
        return ChildJvm.run(Duration.ofSeconds(60), args);
    }
}
