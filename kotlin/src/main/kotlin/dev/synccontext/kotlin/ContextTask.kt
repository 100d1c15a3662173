package dev.synccontext.kotlin

import dev.synccontext.RendererSyncContext

/**
 * A dispatched part of a coroutine, posted to its context. While it runs, this thread is marked as
 * running the dispatcher's own task of that context, which is what lets a resumption made from inside
 * it run at once ([runsOwnTaskOf]).
 */
internal class ContextTask(private val syncContext: RendererSyncContext, private val block: Runnable) : Runnable {

    override fun run() {
        val outer = OWN_TASK.get()
        OWN_TASK.set(syncContext)
        try {
            block.run()
        } finally {
            OWN_TASK.set(outer)
        }
    }

    internal companion object {
        /** The context whose dispatcher task runs on this thread (innermost), restored on every exit. */
        private val OWN_TASK = ThreadLocal<RendererSyncContext?>()

        /**
         * True while this thread runs a dispatcher task of [syncContext] and no callback of another
         * context is nested inside it (a resumption there would run inside that other callback).
         */
        fun runsOwnTaskOf(syncContext: RendererSyncContext): Boolean =
            OWN_TASK.get() === syncContext && RendererSyncContext.current().orElse(null) === syncContext
    }
}
