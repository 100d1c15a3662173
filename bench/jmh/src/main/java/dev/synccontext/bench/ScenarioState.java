package dev.synccontext.bench;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.scenario.Scenario;
import dev.synccontext.scenario.Scenarios;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/** A scenario and the fresh contexts it runs on for one JMH trial. */
final class ScenarioState {

    final Scenario scenario;
    final List<RendererSyncContext> contexts;

    ScenarioState(String scenarioName, String mode) {
        this(scenarioName, mode, BenchModes.ELASTIC);
    }

    ScenarioState(String scenarioName, String mode, String executor) {
        this(scenarioName, () -> BenchModes.create(mode, executor));
    }

    /** The scenario on as many contexts from {@code factory} as one invocation uses. */
    ScenarioState(String scenarioName, Supplier<RendererSyncContext> factory) {
        scenario = Scenarios.byName(scenarioName);
        contexts = new ArrayList<>(scenario.contextsPerInvocation());
        for (int i = 0; i < scenario.contextsPerInvocation(); i++) {
            contexts.add(factory.get());
        }
    }

    void run() throws Exception {
        scenario.runOnce(contexts);
    }

    void close() {
        contexts.forEach(RendererSyncContext::close);
    }
}
