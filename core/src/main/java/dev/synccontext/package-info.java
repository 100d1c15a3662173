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
 * <p><b>The context and its queue.</b> {@code SyncContext} keeps the state word and makes every
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
 * <p><b>The default executor</b>, which tolerates blocking callbacks: {@code ElasticExecutor} (its public
 * face), {@code WorkerPool} (the queue and the threads: submit, take, spin, park, wake, retire),
 * {@code PoolWorker} (one thread), {@code BlockedWorkerMonitor} (what the pool does when a worker blocks:
 * it tells a stuck task from a busy pool and gives the queued work as many workers as the stuck ones), {@code DrainPool} (what a context asks of
 * its pool: stepping back, going on after a batch), {@code LibraryThreads} (the library's own threads).
 *
 * <p><b>Diagnostics.</b> The watchdog, for callbacks that run too long: {@code Watchdog},
 * {@code ClockScan} (its scans of one clock's contexts), {@code BlockedCallback}, {@code BlockedReport},
 * {@code CallSites}, {@code SubmitSites}, {@code AllocationProbe}. Deadlocks: {@code WaitGraph},
 * {@code Awaited}. Flight Recorder: {@code FlightEvents}, {@code BlockedCallbackEvent},
 * {@code QueueWaitEvent}, {@code DroppedWorkEvent}. The kind of thread: {@code ThreadKinds}.
 *
 * <p><b>Time.</b> {@code ContextClock} is the one clock of contexts and the parts on them;
 * {@code SystemClock} is the real one. {@code SampleClock} is not a clock of its own but a compact
 * encoding of its time in a sampled node.
 *
 * <p>Beside this package: {@code dev.synccontext.registry} (many contexts: creating, finding, closing),
 * {@code dev.synccontext.statistics}, {@code dev.synccontext.live} (live channels) and
 * {@code dev.synccontext.micrometer}.
 */
@NullMarked
package dev.synccontext;

import org.jspecify.annotations.NullMarked;
