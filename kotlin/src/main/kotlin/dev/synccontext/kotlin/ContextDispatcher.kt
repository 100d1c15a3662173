package dev.synccontext.kotlin

import dev.synccontext.RendererSyncContext
import java.time.Duration
import java.util.concurrent.RejectedExecutionException
import kotlin.coroutines.CoroutineContext
import kotlin.coroutines.resume
import kotlinx.coroutines.CancellableContinuation
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.Delay
import kotlinx.coroutines.DisposableHandle
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.InternalCoroutinesApi
import kotlinx.coroutines.cancel

/**
 * The dispatcher behind [asCoroutineDispatcher]; its guarantees are stated there.
 *
 * Why "already on the context" means "inside one of this dispatcher's own tasks" and not just
 * `checkAccess()`: when [isDispatchNeeded] is false, kotlinx.coroutines does not run the continuation
 * right away if the thread is already inside its unconfined event loop (a `Dispatchers.Unconfined`
 * coroutine, an undispatched resumption of any immediate dispatcher); it queues it on that loop, which
 * runs it when the loop's outermost frame gets back to it. A thread whose context ownership ends with a
 * callback frame (unlike a main thread, which never stops being main) would then run the coroutine
 * after that frame, off the context (`ContextDispatcherTest.premiseACheckAccessDispatcherRunsThatResumptionOffTheContext`
 * shows it). Our own task runs from the drain at the top of a pool thread's stack, so any unconfined
 * loop on that thread started inside it and finishes inside it.
 *
 * It is a kotlinx [Delay] on the context's [clock][RendererSyncContext.clock]: `delay` and `withTimeout` of a
 * coroutine on it wait on that clock's timers (a test kit's virtual clock: `kit.advanceBy` makes them due),
 * and a `delay`'s resumption is then dispatched to the context like any other. `Delay` is marked internal
 * API by kotlinx.coroutines (it is how `Dispatchers.Main` and executor dispatchers provide their timers);
 * its two methods have been stable since 1.0.
 */
@OptIn(InternalCoroutinesApi::class)
internal class ContextDispatcher(private val syncContext: RendererSyncContext) : CoroutineDispatcher(), Delay {

    /** Read once: a context's clock is fixed when it is built. */
    private val clock = syncContext.clock()

    override fun scheduleResumeAfterDelay(timeMillis: Long, continuation: CancellableContinuation<Unit>) {
        // Fires on the clock's thread (the virtual clock's: the one that moves time); resume dispatches to the context.
        val timer = clock.schedule({ continuation.resume(Unit) }, Duration.ofMillis(timeMillis.coerceAtLeast(0)))
        continuation.invokeOnCancellation { timer.cancel(false) }
    }

    override fun invokeOnTimeout(timeMillis: Long, block: Runnable, context: CoroutineContext): DisposableHandle {
        val timer = clock.schedule(block, Duration.ofMillis(timeMillis.coerceAtLeast(0)))
        return DisposableHandle { timer.cancel(false) }
    }

    override fun isDispatchNeeded(context: CoroutineContext): Boolean = !ContextTask.runsOwnTaskOf(syncContext)

    override fun dispatch(context: CoroutineContext, block: Runnable) {
        try {
            syncContext.post(ContextTask(syncContext, block))
        } catch (rejected: RejectedExecutionException) {
            // As kotlinx's executor dispatcher does: the coroutine learns why, and still finishes somewhere.
            context.cancel(
                kotlinx.coroutines.CancellationException(
                    "Context '${syncContext.name()}' rejected this coroutine's resumption, so the coroutine " +
                        "is cancelled: ${rejected.message}",
                    rejected,
                ),
            )
            Dispatchers.IO.dispatch(context, block)
        }
    }

    override fun equals(other: Any?): Boolean = other is ContextDispatcher && other.syncContext === syncContext

    override fun hashCode(): Int = System.identityHashCode(syncContext)

    override fun toString(): String = "RendererSyncContext(${syncContext.name()}).asCoroutineDispatcher()"
}
