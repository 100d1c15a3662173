/**
 * The built-in benchmark scenarios, the baseline design they are compared with, and the in-process
 * runner behind {@code POST /actuator/synccontext}. Shared by the JMH bench ({@code bench/jmh}) and the
 * actuator endpoint; an artifact of its own ({@code synccontext-scenarios}) so that the runtime jar,
 * {@code synccontext-core}, holds none of it. {@code docs/DESIGN.md} defines each scenario.
 *
 * <p>Null-marked (JSpecify): nothing here accepts or returns {@code null} unless annotated.
 */
@NullMarked
package dev.synccontext.scenario;

import org.jspecify.annotations.NullMarked;
