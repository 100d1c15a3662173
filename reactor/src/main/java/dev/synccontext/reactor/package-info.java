/**
 * Project Reactor on a {@link dev.synccontext.RendererSyncContext}: {@link dev.synccontext.reactor.ContextScheduler}
 * is a {@link reactor.core.scheduler.Scheduler} whose tasks run as callbacks of one context, so a
 * {@code publishOn}/{@code subscribeOn} stage runs serialized with everything else on that context. Start
 * with its Javadoc (the guarantees, when a task runs at once, what a closed context does). A
 * {@code block()} from inside a context that could never end throws
 * {@link dev.synccontext.ContextDeadlockException} instead ({@code BlockingWaits}, {@code BlockWatch}).
 *
 * <p>An artifact of its own ({@code synccontext-reactor}), so an application without Reactor gets none of
 * it. Null-marked (JSpecify).
 */
@NullMarked
package dev.synccontext.reactor;

import org.jspecify.annotations.NullMarked;
