package dev.synccontext.autoconfigure.endpoint;

import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;

/**
 * What {@code POST /actuator/synccontext} answers: a {@link Report} or, when it did not run, a
 * {@link Refused} with the status and the reason. Both are {@link OperationResponseBody}s, so the
 * actuator's own JSON settings apply, never the application's.
 */
public sealed interface ScenarioRunResponse extends OperationResponseBody {

    /**
     * A finished run: one row per scenario and mode, and the same rows as the reference text table (BenchmarkDotNet's format);
     * {@code contexts} says how each mode's contexts were built (what they share, what only one has).
     */
    record Report(List<Row> rows, String table, boolean truncated, long elapsedMillis, String contexts)
            implements ScenarioRunResponse {
    }

    /** A run that did not happen or failed: the HTTP status and what to do about it. */
    record Refused(int status, @Nullable String error) implements ScenarioRunResponse {
    }

    /**
     * One row of the reference table. {@code error} and {@code stdDev} are null with a single iteration;
     * {@code allocated} is null where the JVM cannot measure it.
     */
    record Row(String method, String mode, @Nullable Double mean, @Nullable Double error,
            @Nullable Double stdDev, @Nullable Double median, @Nullable Double allocated, int iterations,
            Units units) {
    }

    /**
     * What the numbers of a row are in: times in {@code time} per {@code per}, allocation in
     * {@code allocated} per {@code per}; one invocation is the scenario's whole loop of
     * {@code operationsPerInvocation} operations.
     */
    record Units(String time, String allocated, String per, int operationsPerInvocation) {
    }
}
