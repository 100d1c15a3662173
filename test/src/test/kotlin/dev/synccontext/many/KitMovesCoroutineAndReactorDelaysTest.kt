package dev.synccontext.many

import dev.synccontext.RendererSyncContext
import dev.synccontext.kotlin.asCoroutineDispatcher
import dev.synccontext.reactor.ContextScheduler
import dev.synccontext.test.SyncContextTestKit
import java.time.Duration
import java.util.concurrent.TimeUnit
import kotlin.time.Duration.Companion.seconds
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.ExperimentalCoroutinesApi
import kotlinx.coroutines.async
import kotlinx.coroutines.cancel
import kotlinx.coroutines.delay
import kotlinx.coroutines.test.currentTime
import kotlinx.coroutines.test.runTest
import kotlinx.coroutines.withTimeout
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import reactor.core.publisher.Flux

/**
 * The kit's virtual time moves a coroutine's `delay` on a context's dispatcher and a Reactor delay on its
 * [ContextScheduler]: both wait on the context's clock, so `kit.advanceBy` makes them due, in
 * milliseconds of real time.
 */
class KitMovesCoroutineAndReactorDelaysTest {

    private val kit = SyncContextTestKit.create()
    private val board = kit.newContext("board")

    /** The name of the context the caller runs on, or "no context". */
    private fun contextName(): String = RendererSyncContext.current().map { it.name() }.orElse("no context")

    @Test
    fun aCoroutineDelayAndAReactorDelayElementsOnTheContextBothCompleteUnderAdvanceBy() {
        val scope = CoroutineScope(board.asCoroutineDispatcher())
        val coroutine = scope.async {
            delay(30.seconds)
            RendererSyncContext.current().orElse(null)
        }
        val ticks = Flux.range(1, 3)
            .delayElements(Duration.ofSeconds(10), ContextScheduler.of(board))
            .map { tick -> "$tick on ${contextName()}" }
            .collectList()
            .toFuture()

        val realStart = System.nanoTime()
        kit.advanceBy(Duration.ofSeconds(29))
        assertThat(coroutine.isCompleted).describedAs("the coroutine's delay is not due at 29 s").isFalse()
        assertThat(ticks).describedAs("the third element is not due at 29 s").isNotDone()

        kit.advanceBy(Duration.ofSeconds(1))
        val realMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - realStart)
        assertThat(coroutine.isCompleted).describedAs("due at 30 s of virtual time").isTrue()
        @Suppress("OPT_IN_USAGE")
        assertThat(coroutine.getCompleted()).describedAs("resumed on its context").isSameAs(board)
        assertThat(ticks.getNow(null)).containsExactly("1 on board", "2 on board", "3 on board")
        assertThat(realMillis).describedAs("30 s of virtual time took %d ms of real time", realMillis).isLessThan(1_000)
        println("30 s of virtual time (a coroutine delay and a Reactor delayElements) in $realMillis ms of real time")
        scope.cancel()
        kit.verify()
    }

    @Test
    fun aReactorIntervalOnTheContextTicksOnVirtualTime() {
        val ticks = Flux.interval(Duration.ofMinutes(1), ContextScheduler.of(board))
            .map { tick -> "$tick on ${contextName()}" }
            .take(3)
            .collectList()
            .toFuture()
        kit.advanceBy(Duration.ofMinutes(2))
        assertThat(ticks).isNotDone()
        kit.advanceBy(Duration.ofMinutes(1))
        assertThat(ticks.getNow(null)).containsExactly("0 on board", "1 on board", "2 on board")
        assertThat(kit.clock().pendingTimers()).describedAs("take(3) cancelled the period").isZero()
        kit.verify()
    }

    @Test
    fun aReactorPipelineMeasuresVirtualTimeOnTheContextsScheduler() {
        val scheduler = ContextScheduler.of(board)
        val elapsed = reactor.core.publisher.Mono.just("quote")
            .delayElement(Duration.ofSeconds(10), scheduler)
            .elapsed(scheduler)
            .map { it.t1 }
            .toFuture()
        kit.advanceBy(Duration.ofSeconds(10))
        assertThat(elapsed.getNow(null)).describedAs("elapsed() reads the context's clock").isEqualTo(10_000L)
        kit.verify()
    }

    @Test
    fun aWithTimeoutOnTheContextFiresOnVirtualTime() {
        val scope = CoroutineScope(board.asCoroutineDispatcher())
        val outcome = scope.async {
            runCatching { withTimeout(5.seconds) { delay(60.seconds) } }.exceptionOrNull()?.javaClass?.simpleName
        }
        kit.advanceBy(Duration.ofSeconds(5))
        assertThat(outcome.isCompleted).isTrue()
        @Suppress("OPT_IN_USAGE")
        assertThat(outcome.getCompleted()).isEqualTo("TimeoutCancellationException")
        assertThat(kit.clock().pendingTimers()).describedAs("the cancelled delay's timer is gone").isZero()
        scope.cancel()
        kit.verify()
    }

    /**
     * With kotlinx-coroutines-test: `runTest` has a virtual clock of its own, which moves only coroutines on
     * its test dispatcher. A coroutine on a context's dispatcher waits on the kit's clock, so the test body
     * moves that one with `kit.advanceBy` (on the test thread, which runs the kit's queued work), then
     * awaits the result, which is ready: runTest's clock has not moved for it.
     */
    @OptIn(ExperimentalCoroutinesApi::class)
    @Test
    fun insideRunTestTheBodyMovesTheKitsTimeForCoroutinesOnAContext() = runTest {
        val answer = async(board.asCoroutineDispatcher()) {
            delay(30.seconds)
            contextName()
        }
        kit.advanceBy(Duration.ofSeconds(30))
        assertThat(answer.await()).isEqualTo("board")
        assertThat(currentTime).describedAs("runTest's own virtual time did not move").isZero()
        kit.verify()
    }
}
