package dev.synccontext.scenario;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What {@link ScenarioRunner#run} should run: scenario names × modes, each for {@code warmups}
 * unmeasured then {@code iterations} measured iterations, the whole run bounded by
 * {@code maxDuration}. The constructor throws {@link IllegalArgumentException} if a list is empty or
 * holds null, a scenario name is unknown, {@code warmups < 0}, {@code iterations < 1} or
 * {@code maxDuration} is not positive.
 *
 * @param scenarios scenario names, in the order to run them
 * @param modes the designs to run each scenario on
 * @param warmups unmeasured iterations before the measured ones
 * @param iterations measured iterations
 * @param maxDuration wall-clock bound of the whole run
 */
public record BenchmarkRequest(List<String> scenarios, List<Mode> modes, int warmups, int iterations,
        Duration maxDuration) {

    public BenchmarkRequest {
        if (scenarios == null || scenarios.isEmpty() || scenarios.stream().anyMatch(Objects::isNull)) {
            throw new IllegalArgumentException("scenarios must name at least one scenario (valid: "
                    + String.join(", ", Scenarios.names()) + ")");
        }
        for (String name : scenarios) {
            if (!Scenarios.names().contains(name)) {
                throw new IllegalArgumentException("Unknown scenario '" + name + "'; valid scenarios are: "
                        + String.join(", ", Scenarios.names()));
            }
        }
        if (modes == null || modes.isEmpty() || modes.stream().anyMatch(Objects::isNull)) {
            throw new IllegalArgumentException("modes must hold at least one of: baseline, optimized");
        }
        if (warmups < 0) {
            throw new IllegalArgumentException("warmups must be 0 or more, was " + warmups);
        }
        if (iterations < 1) {
            throw new IllegalArgumentException("iterations must be at least 1, was " + iterations);
        }
        if (maxDuration == null || maxDuration.isZero() || maxDuration.isNegative()) {
            throw new IllegalArgumentException("maxDuration must be positive, was " + maxDuration);
        }
        scenarios = List.copyOf(scenarios);
        modes = List.copyOf(modes);
    }
}
