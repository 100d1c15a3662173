package dev.synccontext.scenario;

import dev.synccontext.RendererSyncContext;
import java.util.List;

/**
 * One built-in benchmark scenario: a loop of calls on a context that is timed as a whole. The JMH
 * bench and the in-process {@link ScenarioRunner} run the very same code.
 *
 * <h2>Guarantees</h2>
 * Every invocation checks, once, that the context did what the scenario asked: every callback ran,
 * exactly once and in the order the contract promises, and the counters end exactly at their
 * targets. A context that drops, repeats or reorders work makes {@link #runOnce} throw
 * {@link IllegalStateException} (a context that never runs a callback is reported after a bounded
 * wait instead of hanging), so a broken context fails loudly instead of looking fast.
 *
 * <p>Instances keep their per-invocation state in fields (so the timed loop allocates only what the
 * context allocates); one instance runs one invocation at a time, and a second concurrent call
 * throws. {@link Scenarios} hands out fresh instances.
 */
public interface Scenario {

    /** The scenario's name as in the reference table, for example {@code InvokeAsyncReady}. */
    String name();

    /**
     * One invocation = the whole loop.
     *
     * @throws IllegalStateException if the context dropped, repeated or reordered work
     * @throws UnsupportedOperationException if the scenario needs more than one context (see
     *     {@link #contextsPerInvocation()})
     */
    void runOnce(RendererSyncContext context) throws Exception;

    /** How many context operations one invocation performs (the divisor for per-op figures). */
    int operationsPerInvocation();

    /**
     * How many distinct contexts one invocation uses; 1 for every reference scenario. Callers that honour
     * it create that many fresh contexts once and call {@link #runOnce(List)}.
     */
    default int contextsPerInvocation() {
        return 1;
    }

    /**
     * One invocation over {@link #contextsPerInvocation()} contexts. The default runs
     * {@link #runOnce(RendererSyncContext)} on the first.
     */
    default void runOnce(List<? extends RendererSyncContext> contexts) throws Exception {
        runOnce(contexts.get(0));
    }
}
