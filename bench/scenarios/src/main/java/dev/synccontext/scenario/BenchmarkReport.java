package dev.synccontext.scenario;

import java.time.Duration;
import java.util.List;

/**
 * What {@link ScenarioRunner#run} measured: the rows (in request order: scenario, then mode), the
 * same rows as a text table in the reference table's (BenchmarkDotNet) format, whether the run stopped early at
 * its {@code maxDuration} (rows then hold fewer iterations than asked, and rows never reached are
 * missing), and how long it took.
 */
public record BenchmarkReport(List<BenchmarkRow> rows, String table, boolean truncated, Duration elapsed) {

    public BenchmarkReport {
        rows = List.copyOf(rows);
    }
}
