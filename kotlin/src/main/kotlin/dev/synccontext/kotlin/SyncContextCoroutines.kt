package dev.synccontext.kotlin

import dev.synccontext.RendererSyncContext
import dev.synccontext.registry.ContextProxy
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.withContext

/**
 * A [CoroutineDispatcher] that runs coroutines on this context: every part of a coroutine between two
 * suspensions runs as a callback of this context, so it is serialized with the context's other callbacks
 * (those of `invokeAsync`, `post`, `send` and of other coroutines on it) and sees
 * [RendererSyncContext.current] return this context.
 *
 * Guarantees:
 * - **On the context after every suspension.** Whatever thread resumes the coroutine (a `delay` timer, an
 *   HTTP client's thread, the end of `withContext(Dispatchers.IO)`), the next part runs on this context.
 *   One context never runs two parts at once; parts queued on it run in the order they were dispatched.
 * - **No dispatch when already there.** A resumption made by a coroutine that runs on this context
 *   (completing a `Deferred`, sending on a `Channel`, releasing a `Mutex`, finishing a child) runs the
 *   resumed coroutine at once on the current thread, inside the same callback, as
 *   `Dispatchers.Main.immediate` does on its thread. It is not posted and does not wait behind queued work.
 * - **Otherwise a hand-off, never inline on the resuming thread.** A resumption from any other thread,
 *   or from a plain callback of the context, is [posted][RendererSyncContext.post]: the coroutine never
 *   runs on a timer thread or a Netty event loop, which may not block. (From a plain callback it is posted
 *   rather than run at once because the calling thread may be inside a `Dispatchers.Unconfined` loop that
 *   would run the coroutine only after that callback returned, off the context; the dispatcher cannot see
 *   that loop, so it does not guess.) `yield()` always posts, to the back of the context's queue.
 * - **A closed context cancels, never hangs.** When the context rejects a dispatch (closed, or its queue
 *   is full), the coroutine's `Job` is cancelled with a `CancellationException` whose cause is the
 *   context's `RejectedExecutionException` (which names the context), and the coroutine finishes on
 *   `Dispatchers.IO` (off the context: its `finally` blocks run there), as kotlinx.coroutines does for an
 *   executor that rejects.
 *
 * It does not make the context a lock across suspensions: between two parts of one coroutine, other
 * callbacks of the context run. Dispatchers over the same context are [equal][Any.equals], so
 * `withContext(context.asCoroutineDispatcher())` inside a coroutine already on it does not dispatch.
 *
 * A [ContextProxy] (the starter's injected `RendererSyncContext`) is resolved here, once: call this on
 * the request thread or inside a callback, and the dispatcher keeps that session's context.
 *
 * Known limit: [RendererSyncContext.closeNow] hands the queued dispatches back to its caller without
 * running them (as `ExecutorService.shutdownNow` does), so a coroutine whose resumption was queued then
 * stays suspended; cancel the coroutine's scope when you force-close a context yourself.
 */
public fun RendererSyncContext.asCoroutineDispatcher(): CoroutineDispatcher =
    ContextDispatcher(if (this is ContextProxy) target() else this)

/**
 * Runs [block] on this context and returns its result: `withContext(asCoroutineDispatcher(), block)`.
 * The caller resumes on its own dispatcher afterwards. Called from a coroutine already on this context,
 * it runs [block] at once, without a dispatch.
 */
public suspend fun <T> RendererSyncContext.onContext(block: suspend CoroutineScope.() -> T): T =
    withContext(asCoroutineDispatcher(), block)
