/**
 * The serialized execution context: {@link dev.synccontext.RendererSyncContext} runs the callbacks given
 * to it one at a time, in order, owns no thread and runs work inline when idle. Start with its Javadoc
 * (every guarantee, the entry point × state table, the known limits); {@code SyncContext} explains how
 * it works, and {@code docs/DESIGN.md} in the repository is the design record.
 *
 * <p>Uses only the JDK at run time. Null-marked: no parameter or return value of the public API is
 * {@code null} unless annotated {@code @Nullable} (JSpecify; the annotations are not needed at run time).
 *
 * <h2>Map of the package</h2>
 * The package is flat (its parts share package-private state, as {@code java.util.concurrent}'s do);
 * these groups say which part each type belongs to.
 *
 * <p><b>The contract</b>, public: {@code RendererSyncContext} (and its {@code Builder}),
 * {@code SyncContextDefaults}, {@code CallbackDecorator}, {@code SyncContextObserver} with
 * {@code CallbackPath} and {@code CallbackOutcome}, {@code ContextWaits}, and what a caller may be thrown:
 * {@code ContextDeadlockException}, {@code ContextShuttingDownException}.
 *
 * <p><b>The context and its queue.</b> {@code ContextState} holds the state word, its layout and its
 * reads (the queries, the queue depth, the owner token's rule); {@code SyncContext} makes every
 * transition of it: where the owner <em>gives</em> the context away (up, to the executor, to a sender or
 * a waiting caller) and where a thread <em>takes</em> it. {@code Drain} is the owner's loop over the
 * queue. The queue: {@code CallbackQueue}, {@code QueueChunk}, and the owner's fields kept a cache line
 * from the producers' ({@code OwnerSide}, {@code OwnerSidePadding}). What a slot holds:
 * {@code QueuedCallback}, {@code QueuedFuture} (a waiting caller runs its own turn there),
 * {@code QueuedCall}, {@code QueuedStage}, {@code QueuedSend}, {@code QueuedPost}, {@code DerivedFuture}.
 * Running a callback and telling the observer: {@code CallbackRunner}, {@code Invocation},
 * {@code Outcomes}, {@code SharedDoneFuture}, {@code CallbackFrame} (what one thread runs now). Building,
 * closing and refusing: {@code ContextBuilder}, {@code ContextSettings}, {@code Termination},
 * {@code Refusals}. Asking another context: {@code Ask}.
 *
 * <p><b>The default executor</b>, which tolerates blocking callbacks; its types share the stem
 * {@code Elastic}: {@code ElasticExecutor} (what a context and the application see), {@code ElasticPool}
 * (the queue and the threads: submit, take, spin, park, wake, retire), {@code ElasticWorker} (one thread),
 * {@code ElasticMonitor} (what the pool does when a worker blocks: it tells a stuck task from a busy pool
 * and gives the queued work as many workers as the stuck ones), {@code ElasticDrainHints} (what a context
 * asks of the pool: stepping back, going on after a batch), and {@code LibraryThreads} (how the library
 * makes its own threads).
 *
 * <p><b>Diagnostics.</b> The watchdog, for callbacks that run too long; its types share the stem
 * {@code Watchdog}, and "blocked" in this package means a callback the watchdog reports:
 * {@code Watchdog}, {@code WatchdogScan} (its scans of one clock's contexts), {@code WatchdogReport} (how
 * a report reaches the log, the observer and Flight Recorder), with {@code BlockedCallback} (the public
 * report), {@code CallSites}, {@code SubmitSites}, {@code AllocationProbe}. Deadlocks: {@code WaitGraph},
 * {@code Awaited}. Flight Recorder: {@code FlightEvents}, {@code BlockedCallbackEvent},
 * {@code QueueWaitEvent}, {@code DroppedWorkEvent}. The kind of thread: {@code ThreadKinds}.
 *
 * <p><b>Time.</b> "Clock" means one thing: {@code ContextClock}, the clock of contexts and the parts on
 * them; {@code SystemClock} is the real one. {@code SampleTime} is not a clock but a compact encoding of
 * {@code System.nanoTime()} in a sampled node.
 *
 * <p>Beside this package: {@code dev.synccontext.registry} (many contexts: creating, finding, closing),
 * {@code dev.synccontext.statistics}, {@code dev.synccontext.live} (live channels) and
 * {@code dev.synccontext.micrometer}.
 */
@NullMarked
package dev.synccontext;

import org.jspecify.annotations.NullMarked;
