package dev.synccontext.autoconfigure.endpoint;

import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.annotation.RegisterReflectionForBinding;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import dev.synccontext.registry.SyncContextRegistry;

/**
 * {@code /actuator/synccontext} with its POST: everything {@link SyncContextEndpoint} shows, plus a run
 * of the built-in benchmark scenarios on fresh contexts built like the application's, answered with
 * the reference table. Used instead of {@link SyncContextEndpoint} when {@code synccontext-scenarios} is on
 * the class path (the starter brings it); only this class and {@link ScenarioRuns} refer to it.
 *
 * <p>The POST is CPU-heavy, so it follows the rules of Boot's own costly endpoint, {@code heapdump}:
 * it is off unless the application opts in with {@code management.endpoint.synccontext.access=unrestricted}
 * (the endpoint's default access is read-only: 405 otherwise, or 404 when not exposed at all), at most
 * one run at a time (a concurrent POST answers 429 with a message), bad input answers 400, and the
 * limits come from {@code synccontext.benchmark.*}.
 */
public class SyncContextScenarioEndpoint extends SyncContextEndpoint {

    private final ScenarioRuns runs;

    SyncContextScenarioEndpoint(SyncContextRegistry registry, Map<String, Object> settings,
            ScenarioRuns runs) {
        super(registry, settings);
        this.runs = runs;
    }

    /**
     * Runs scenarios. Every field is optional.
     *
     * @param scenarios comma-separated scenario names; default: the four reference scenarios
     * @param modes comma-separated {@code baseline}, {@code optimized}; default {@code optimized}
     * @param iterations measured iterations per scenario and mode
     * @param warmups unmeasured iterations before them
     * @return the report (200), or a {@link ScenarioRunResponse.Refused} saying why not (400 bad input,
     *     429 a run in progress, 500 a scenario failed)
     */
    @WriteOperation
    @RegisterReflectionForBinding({ ScenarioRunResponse.Report.class, ScenarioRunResponse.Row.class,
            ScenarioRunResponse.Units.class, ScenarioRunResponse.Refused.class })
    public WebEndpointResponse<ScenarioRunResponse> run(@Nullable String scenarios, @Nullable String modes,
            @Nullable Integer iterations, @Nullable Integer warmups) {
        ScenarioRuns.Result result = runs.run(scenarios, modes, iterations, warmups);
        return new WebEndpointResponse<>(result.body(), result.status());
    }

    @Override
    ScenarioCatalog scenarioCatalog() {
        return ScenarioRuns.available();
    }

    @Override
    boolean scenarioRunInProgress() {
        return runs.running();
    }
}
