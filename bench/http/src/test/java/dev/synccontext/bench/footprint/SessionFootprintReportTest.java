package dev.synccontext.bench.footprint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.bench.footprint.SessionFootprintReport.Result;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The report measures what it says, at a size CI affords (the figure at 100,000 sessions is in
 * bench/README.md): sessions cost heap in both apps, the starter's part is positive and holds the session's
 * context, and it stays within the bound the README states.
 */
@Tag("scale")
class SessionFootprintReportTest {

    @Test
    void theStartersPartOfAnIdleSessionIsItsContextAndIsBounded() throws Exception {
        int sessions = 2_000;
        Result without = SessionFootprintReport.measure("without", sessions, false);
        Result with = SessionFootprintReport.measure("with", sessions, true);
        double starter = with.bytesPerSession() - without.bytesPerSession();
        System.out.printf("session footprint at %,d sessions: %.0f B without the starter, %.0f B with it%n", sessions,
                without.bytesPerSession(), with.bytesPerSession());
        assertThat(without.bytesPerSession()).as("a Tomcat session costs heap").isGreaterThan(200);
        assertThat(with.growth().getOrDefault("dev.synccontext.SyncContext", 0L) / (double) sessions)
                .as("one idle context per session, retained").isGreaterThan(0.9 * 16);
        assertThat(without.growth().getOrDefault("dev.synccontext.SyncContext", 0L)).isZero();
        assertThat(starter).as("what the starter adds per idle session").isPositive().isLessThan(2_048);
    }
}
