/**
 * The test kit: deterministic tests of code that runs on a {@code RendererSyncContext}.
 *
 * <p>{@link dev.synccontext.test.SyncContextTestKit} holds a {@link dev.synccontext.test.DeterministicExecutor}
 * (queued work runs only when the test says so, on the test's thread) and a
 * {@link dev.synccontext.test.VirtualClock} (time moves only when the test says so); contexts built
 * with the kit use both, and the kit checks at the end that no callback was left queued and no failure
 * went unseen, naming where each was submitted. {@link dev.synccontext.test.Explorer} runs a scenario
 * under many seeded interleavings and prints the seed of a failing one.
 * {@link dev.synccontext.test.SyncContextTest} wires a kit per test into JUnit 5; the
 * {@code dev.synccontext.test.spring} package does the same for a Spring Boot application.
 */
@NullMarked
package dev.synccontext.test;

import org.jspecify.annotations.NullMarked;
