package dev.synccontext.spring.handler.coroutines

import dev.synccontext.RendererSyncContext
import dev.synccontext.spring.scope.ContextScoped
import java.util.concurrent.CompletableFuture
import java.util.concurrent.ConcurrentLinkedQueue
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.delay
import kotlinx.coroutines.future.await
import kotlinx.coroutines.withContext
import org.springframework.stereotype.Component

/**
 * Per-context state with plain fields and no lock, touched by every part of the suspend handlers. Open, as
 * the context-scoped proxy is a subclass (the project compiles Kotlin without the all-open plugin).
 */
@Component
@ContextScoped
open class Ledger {

    private var count = 0
    private var inside = 0
    private var maxInside = 0

    /** A read-yield-write increment that loses updates whenever two calls overlap. */
    open fun increment(): Int {
        inside++
        maxInside = maxOf(maxInside, inside)
        val read = count
        Thread.yield()
        count = read + 1
        inside--
        return count
    }

    open fun report(): String = "$count max-inside $maxInside"
}

/** Where each part of a suspend handler ran, and the hand-offs of the closed-context test. */
@Component
class Witness {

    val parts = AtomicInteger()
    val wrong = ConcurrentLinkedQueue<String>()
    val offContextInIo = AtomicInteger()

    @Volatile
    var parkedOn: RendererSyncContext? = null

    @Volatile
    var unpark = CompletableFuture<Unit>()

    fun reset() {
        parts.set(0)
        wrong.clear()
        offContextInIo.set(0)
        parkedOn = null
        unpark = CompletableFuture()
    }

    /** Records a part that must run inside a callback of the context named [expected]. */
    fun part(expected: String, step: String) {
        parts.incrementAndGet()
        val current = RendererSyncContext.current().orElse(null)
        if (current == null || current.name() != expected || !current.checkAccess()) {
            wrong.add("$step ran on context ${current?.name()} on thread ${Thread.currentThread().name}, not on $expected")
        }
    }
}

/** Where the current thread runs: the current context's name, or "none". */
fun where(): String = RendererSyncContext.current().map { it.name() }.orElse("none")

/**
 * The suspend handler body these tests share: suspends on a `delay`, on [second] (by default a future another thread
 * completes) and in a `withContext(Dispatchers.IO)`, and touches the context's state in every part in between.
 */
suspend fun stepsOnTheContext(
    ledger: Ledger,
    witness: Witness,
    expected: String,
    secondName: String = "a future completed on another thread",
    second: suspend () -> Unit = {
        CompletableFuture.supplyAsync({ 1 }, CompletableFuture.delayedExecutor(1, TimeUnit.MILLISECONDS)).await()
    },
): Int {
    witness.part(expected, "the first part")
    ledger.increment()
    delay(1)
    witness.part(expected, "the part after delay")
    ledger.increment()
    second()
    witness.part(expected, "the part after $secondName")
    ledger.increment()
    withContext(Dispatchers.IO) {
        if (RendererSyncContext.current().isEmpty) {
            witness.offContextInIo.incrementAndGet()
        }
    }
    witness.part(expected, "the part after withContext(Dispatchers.IO)")
    return ledger.increment()
}

/** The closed-context test's body: parks on a future the test completes after closing the context. */
suspend fun parkUntilReleased(ledger: Ledger, witness: Witness): String {
    witness.parkedOn = RendererSyncContext.current().orElseThrow()
    witness.unpark.await()
    ledger.increment()
    return "unparked"
}
