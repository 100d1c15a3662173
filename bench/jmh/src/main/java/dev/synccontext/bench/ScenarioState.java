package dev.synccontext.bench;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.scenario.Scenario;
import dev.synccontext.scenario.Scenarios;
import java.util.ArrayList;
import java.util.List;

/** A scenario and the fresh contexts it runs on for one JMH trial. */
final class ScenarioState {

    final Scenario scenario;
    final List<RendererSyncContext> contexts;

    ScenarioState(String scenarioName, String mode) {
        this(scenarioName, mode, BenchModes.ELASTIC);
    }

    ScenarioState(String scenarioName, String mode, String executor) {
        scenario = Scenarios.byName(scenarioName);
        contexts = new ArrayList<>(scenario.contextsPerInvocation());
        for (int i = 0; i < scenario.contextsPerInvocation(); i++) {
            contexts.add(BenchModes.create(mode, executor));
        }
    }

    void run() throws Exception {
        scenario.runOnce(contexts);
    }

    void close() {
        contexts.forEach(RendererSyncContext::close);
    }
}
