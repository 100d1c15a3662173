package dev.synccontext.kotlin

import com.sun.net.httpserver.HttpServer
import dev.synccontext.CallbackDecorator
import dev.synccontext.RendererSyncContext
import dev.synccontext.registry.ContextProxy
import java.net.InetAddress
import java.net.InetSocketAddress
import java.net.URI
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import dev.synccontext.ContextClock
import java.time.Duration
import java.util.Optional
import java.util.concurrent.CompletableFuture
import java.util.concurrent.Future
import java.util.concurrent.FutureTask
import java.util.concurrent.Callable
import java.util.concurrent.CancellationException
import java.util.concurrent.ConcurrentLinkedQueue
import java.util.concurrent.CountDownLatch
import java.util.concurrent.RejectedExecutionException
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicBoolean
import java.util.concurrent.atomic.AtomicInteger
import kotlin.coroutines.CoroutineContext
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.Job
import kotlinx.coroutines.SupervisorJob
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.cancel
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.delay
import kotlinx.coroutines.future.await
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext
import kotlinx.coroutines.withTimeout
import kotlinx.coroutines.yield
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Test

class ContextDispatcherTest {

    private val scope = CoroutineScope(SupervisorJob())
    private val contexts = ConcurrentLinkedQueue<RendererSyncContext>()

    @AfterEach
    fun tearDown() {
        scope.cancel()
        contexts.forEach { it.close() }
    }

    private fun context(name: String, decorator: CallbackDecorator? = null): RendererSyncContext {
        val builder = RendererSyncContext.builder().name(name)
        if (decorator != null) builder.queuedCallbackDecorator(decorator)
        return builder.build().also { contexts += it }
    }

    /** Counts the callbacks the context queues (each dispatch is one post); passes them through unchanged. */
    private class QueuedCount : CallbackDecorator {
        val posts = AtomicInteger()
        override fun decorate(callback: Runnable): Runnable = callback.also { posts.incrementAndGet() }
        override fun <T : Any> decorate(callback: Callable<T>): Callable<T> = callback
    }

    @Test
    fun everyPartBetweenSuspensionsRunsOnTheContext(): Unit = runBlocking {
        val ctx = context("three-suspensions")
        val server = HttpServer.create(InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0)
        server.createContext("/hello") { exchange ->
            val body = "hello".toByteArray()
            exchange.sendResponseHeaders(200, body.size.toLong())
            exchange.responseBody.use { it.write(body) }
        }
        server.start()
        try {
            val client = HttpClient.newHttpClient()
            val request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:${server.address.port}/hello")).build()
            val seen = withTimeout(10_000) {
                scope.async(ctx.asCoroutineDispatcher()) {
                    val parts = mutableListOf<Pair<String, Optional<RendererSyncContext>>>()
                    parts += "start" to RendererSyncContext.current()
                    delay(10)
                    parts += "after delay" to RendererSyncContext.current()
                    val body = client.sendAsync(request, HttpResponse.BodyHandlers.ofString()).await().body()
                    assertThat(body).isEqualTo("hello")
                    parts += "after HTTP await" to RendererSyncContext.current()
                    val onIo = withContext(Dispatchers.IO) { RendererSyncContext.current() }
                    assertThat(onIo).describedAs("withContext(Dispatchers.IO) leaves the context").isEmpty()
                    parts += "after withContext(IO)" to RendererSyncContext.current()
                    parts
                }.await()
            }
            assertThat(seen).hasSize(4)
            seen.forEach { (part, current) ->
                assertThat(current).describedAs("RendererSyncContext.current() $part").containsSame(ctx)
            }
        } finally {
            server.stop(0)
        }
    }

    @Test
    fun coroutinesAndCallbacksOnOneContextNeverOverlapAndLoseNoUpdate(): Unit = runBlocking {
        val ctx = context("counter")
        val shared = SharedCounter()
        val coroutines = 8
        val increments = 1_000
        val posts = 2_000
        val poster = Thread {
            repeat(posts) { ctx.post { shared.increment { ctx.checkAccess() } } }
        }
        withTimeout(60_000) {
            val jobs = (1..coroutines).map { n ->
                scope.async(ctx.asCoroutineDispatcher()) {
                    repeat(increments) { i ->
                        shared.increment { RendererSyncContext.current().orElse(null) === ctx }
                        suspendOneOfThreeWays(i + n)
                    }
                }
            }
            poster.start()
            jobs.awaitAll()
            poster.join()
            ctx.invokeAsync(Runnable {}).await() // every post queued before this one has run
        }
        assertThat(shared.offContext.get()).describedAs("increments that ran off the context").isZero()
        assertThat(shared.overlaps.get()).describedAs("increments that overlapped another callback").isZero()
        assertThat(shared.count).describedAs("the plain counter").isEqualTo(coroutines * increments + posts)
    }

    /**
     * The premise: without the context's dispatcher, the same coroutines run off the context (so
     * nothing serializes them with its callbacks); lost updates and overlaps usually follow, printed.
     */
    @Test
    fun premiseOnDispatchersDefaultTheSameCoroutinesRunOffTheContext(): Unit = runBlocking {
        val ctx = context("premise")
        val shared = SharedCounter()
        withTimeout(60_000) {
            (1..8).map { n ->
                scope.async(Dispatchers.Default) {
                    repeat(1_000) { i ->
                        shared.increment { RendererSyncContext.current().orElse(null) === ctx }
                        suspendOneOfThreeWays(i + n)
                    }
                }
            }.awaitAll()
        }
        println("premise on Dispatchers.Default: counter ${shared.count} of 8000, ${shared.overlaps.get()} overlaps")
        assertThat(shared.offContext.get()).describedAs("increments that ran off the context").isEqualTo(8_000)
    }

    private suspend fun suspendOneOfThreeWays(i: Int) {
        when (i % 10) {
            0 -> delay(1)
            in 1..4 -> withContext(Dispatchers.IO) { Thread.onSpinWait() }
            else -> yield()
        }
    }

    /** A plain counter with a read-modify-write window, and detectors for overlap and wrong context. */
    private class SharedCounter {
        var count = 0
        val overlaps = AtomicInteger()
        val offContext = AtomicInteger()
        private val inside = AtomicBoolean()

        fun increment(onContext: () -> Boolean) {
            if (!onContext()) offContext.incrementAndGet()
            if (!inside.compareAndSet(false, true)) overlaps.incrementAndGet()
            val read = count
            repeat(20) { Thread.onSpinWait() }
            count = read + 1
            inside.set(false)
        }
    }

    @Test
    fun aResumptionFromACoroutineAlreadyOnTheContextDoesNotDispatch(): Unit = runBlocking {
        val queued = QueuedCount()
        val ctx = context("ping-pong", queued)
        val dispatcher = ctx.asCoroutineDispatcher()
        val ping = Channel<Int>()
        val pong = Channel<Int>()
        val roundTrips = 1_000
        val offContext = AtomicInteger()
        withTimeout(30_000) {
            val ponger = scope.launch(dispatcher) {
                repeat(roundTrips) {
                    val n = ping.receive()
                    if (!ctx.checkAccess()) offContext.incrementAndGet()
                    pong.send(n)
                }
            }
            val pinger = scope.launch(dispatcher) {
                repeat(roundTrips) {
                    ping.send(it)
                    assertThat(pong.receive()).isEqualTo(it)
                    if (!ctx.checkAccess()) offContext.incrementAndGet()
                }
            }
            ponger.join()
            pinger.join()
        }
        assertThat(offContext.get()).isZero()
        // One post per launch; a dispatch per resumption would have made 2 + 4 × roundTrips.
        assertThat(queued.posts.get()).describedAs("callbacks queued on the context").isEqualTo(2)
    }

    @Test
    fun aResumptionFromOffTheContextIsPostedNotRunOnTheResumingThread(): Unit = runBlocking {
        val ctx = context("hand-off")
        val gate = CompletableDeferred<Unit>()
        val resumedOn = CompletableDeferred<Thread>()
        scope.launch(ctx.asCoroutineDispatcher()) {
            gate.await()
            resumedOn.complete(Thread.currentThread())
        }
        ctx.invokeAsync(Runnable {}).await() // the coroutine has started and suspended
        val completer = Thread.currentThread()
        gate.complete(Unit)
        val thread = withTimeout(10_000) { resumedOn.await() }
        assertThat(thread).describedAs("the coroutine ran on the thread that completed its gate").isNotSameAs(completer)
    }

    @Test
    fun aResumptionFromACallbackInsideAnUnconfinedLoopStillRunsOnTheContext(): Unit = runBlocking {
        val ctx = context("inside-unconfined")
        val seen = resumeFromACallbackInsideAnUnconfinedLoop(ctx, ctx.asCoroutineDispatcher())
        assertThat(seen).containsSame(ctx)
    }

    /**
     * The premise of the own-task rule: a dispatcher that says "no dispatch needed" whenever
     * `checkAccess()` is true lets kotlinx queue the resumption on the Unconfined loop of the calling
     * thread, which runs it after the callback returned, off the context.
     */
    @Test
    fun premiseACheckAccessDispatcherRunsThatResumptionOffTheContext(): Unit = runBlocking {
        val ctx = context("premise-unconfined")
        val seen = resumeFromACallbackInsideAnUnconfinedLoop(ctx, CheckAccessDispatcher(ctx))
        assertThat(seen).isEmpty()
    }

    /**
     * Resumes a coroutine on [dispatcher] from a callback that runs inline inside an Unconfined loop, and
     * returns the context the resumption saw. Tried again until that callback did run on the calling thread,
     * which the rule under test needs: right after a queued call's future completes, the drain that ran it can
     * still hold the context for a moment, and a call made then queues behind it and runs in a drain instead
     * (seen once, on a loaded Java 25).
     */
    private suspend fun resumeFromACallbackInsideAnUnconfinedLoop(
        ctx: RendererSyncContext,
        dispatcher: CoroutineDispatcher,
    ): Optional<RendererSyncContext> {
        repeat(50) {
            val (seen, onCaller) = resumeOnceFromACallbackInsideAnUnconfinedLoop(ctx, dispatcher)
            if (onCaller) {
                return seen
            }
        }
        throw AssertionError("the callback never ran on the calling thread of $ctx in 50 tries")
    }

    private suspend fun resumeOnceFromACallbackInsideAnUnconfinedLoop(
        ctx: RendererSyncContext,
        dispatcher: CoroutineDispatcher,
    ): Pair<Optional<RendererSyncContext>, Boolean> {
        val gate = CompletableDeferred<Unit>()
        val seen = CompletableDeferred<Optional<RendererSyncContext>>()
        scope.launch(dispatcher) {
            gate.await()
            seen.complete(RendererSyncContext.current())
        }
        ctx.invokeAsync(Runnable {}).await() // the coroutine has started and suspended at the gate
        // An Unconfined coroutine (as Spring runs suspend handlers) calls the context; it is idle, so the
        // callback runs inline, inside the Unconfined loop of this thread.
        val onCaller = AtomicBoolean()
        CoroutineScope(Dispatchers.Unconfined).launch {
            val caller = Thread.currentThread()
            ctx.invokeAsync(Runnable {
                onCaller.set(Thread.currentThread() === caller)
                gate.complete(Unit)
            }).join()
        }
        return withTimeout(10_000) { seen.await() } to onCaller.get()
    }

    private class CheckAccessDispatcher(private val ctx: RendererSyncContext) : CoroutineDispatcher() {
        override fun isDispatchNeeded(context: CoroutineContext): Boolean = !ctx.checkAccess()
        override fun dispatch(context: CoroutineContext, block: Runnable) = ctx.post(block)
    }

    @Test
    fun aCoroutineResumedAfterItsContextClosedIsCancelledWithTheRejection(): Unit = runBlocking {
        val ctx = context("closing")
        val gate = CompletableDeferred<Unit>()
        val finallyOn = CompletableDeferred<Optional<RendererSyncContext>>()
        val coroutine = scope.async(ctx.asCoroutineDispatcher()) {
            try {
                gate.await()
                "resumed on a closed context"
            } finally {
                finallyOn.complete(RendererSyncContext.current())
            }
        }
        ctx.invokeAsync(Runnable {}).await() // suspended at the gate
        ctx.close()
        val ended = completionCause(coroutine)
        gate.complete(Unit)
        val failure = withTimeout(10_000) { ended.await() }
        assertThat(coroutine.isCancelled).isTrue()
        assertThat(failure).isInstanceOf(CancellationException::class.java)
            .hasMessageContaining("Context 'closing' rejected")
            .hasCauseInstanceOf(RejectedExecutionException::class.java)
        assertThat(failure!!.cause).hasMessageContaining("closing")
        assertThat(withTimeout(10_000) { finallyOn.await() }).describedAs("its finally block runs off the closed context").isEmpty()
    }

    @Test
    fun closingTheContextWhileManyCoroutinesRunEndsEveryOneOfThem(): Unit = runBlocking {
        val ctx = context("closed-mid-flight")
        val shared = SharedCounter()
        val running = CountDownLatch(100)
        val coroutines = (1..100).map { n ->
            scope.launch(ctx.asCoroutineDispatcher()) {
                running.countDown()
                var i = n
                while (true) {
                    shared.increment { ctx.checkAccess() }
                    suspendOneOfThreeWays(i++)
                }
            }
        }
        assertThat(running.await(30, TimeUnit.SECONDS)).isTrue()
        ctx.close()
        val causes = withTimeout(30_000) { coroutines.map { completionCause(it).await() } }
        assertThat(causes).allSatisfy { cause ->
            assertThat(cause).isInstanceOf(CancellationException::class.java)
                .hasCauseInstanceOf(RejectedExecutionException::class.java)
        }
        assertThat(shared.offContext.get()).describedAs("increments that ran off the context").isZero()
        assertThat(shared.overlaps.get()).isZero()
    }

    @Test
    fun aCoroutineLaunchedOnAClosedContextIsCancelledWithTheRejection(): Unit = runBlocking {
        val ctx = context("closed-before")
        ctx.close()
        val coroutine = scope.launch(ctx.asCoroutineDispatcher()) { error("must not run") }
        val failure = withTimeout(10_000) { completionCause(coroutine).await() }
        assertThat(coroutine.isCancelled).isTrue()
        assertThat(failure).isInstanceOf(CancellationException::class.java)
            .hasCauseInstanceOf(RejectedExecutionException::class.java)
    }

    /** The cause the job completes with, as the job itself holds it (no stack-trace recovery copy). */
    private fun completionCause(job: Job): CompletableDeferred<Throwable?> {
        val cause = CompletableDeferred<Throwable?>()
        job.invokeOnCompletion { cause.complete(it) }
        return cause
    }

    @Test
    fun onContextHopsOntoTheContextAndBack(): Unit = runBlocking {
        val ctx = context("on-context")
        val result = withTimeout(10_000) {
            withContext(Dispatchers.Default) {
                val inside = ctx.onContext { RendererSyncContext.current() }
                inside to RendererSyncContext.current()
            }
        }
        assertThat(result.first).containsSame(ctx)
        assertThat(result.second).isEmpty()
    }

    @Test
    fun onContextFromACoroutineAlreadyOnItDoesNotDispatch(): Unit = runBlocking {
        val queued = QueuedCount()
        val ctx = context("nested-on-context", queued)
        val inside = withTimeout(10_000) {
            scope.async(ctx.asCoroutineDispatcher()) {
                val before = queued.posts.get()
                val current = ctx.onContext { RendererSyncContext.current() }
                current to queued.posts.get() - before
            }.await()
        }
        assertThat(inside.first).containsSame(ctx)
        assertThat(inside.second).describedAs("posts made by onContext").isZero()
    }

    @Test
    fun dispatchersOverTheSameContextAreEqual() {
        val ctx = context("equality")
        assertThat(ctx.asCoroutineDispatcher()).isEqualTo(ctx.asCoroutineDispatcher())
            .hasSameHashCodeAs(ctx.asCoroutineDispatcher())
            .isNotEqualTo(context("other").asCoroutineDispatcher())
        assertThat(ctx.asCoroutineDispatcher().toString()).contains("equality")
    }

    @Test
    fun aContextProxyIsResolvedOnceWhenTheDispatcherIsMade(): Unit = runBlocking {
        val ctx = context("behind-a-proxy")
        val resolutions = AtomicInteger()
        val proxy = object : ContextProxy, RendererSyncContext by ctx {
            override fun target(): RendererSyncContext = ctx.also { resolutions.incrementAndGet() }
        }
        val dispatcher = proxy.asCoroutineDispatcher()
        assertThat(dispatcher).isEqualTo(ctx.asCoroutineDispatcher())
        val seen = withTimeout(10_000) { scope.async(dispatcher) { delay(1); RendererSyncContext.current() }.await() }
        assertThat(seen).containsSame(ctx)
        assertThat(resolutions.get()).isEqualTo(1)
    }

    @Test
    fun yieldLetsQueuedCallbacksRun(): Unit = runBlocking {
        val ctx = context("yield")
        val order = ConcurrentLinkedQueue<String>()
        withTimeout(10_000) {
            scope.async(ctx.asCoroutineDispatcher()) {
                ctx.post { order += "posted" }
                order += "before yield"
                yield()
                order += "after yield"
            }.await()
        }
        assertThat(order).containsExactly("before yield", "posted", "after yield")
    }

    /** A clock whose timers fire only when the test says so; its time stands still (contexts on it: no watchdog). */
    private class HeldClock : ContextClock {
        val timers = ConcurrentLinkedQueue<Pair<Duration, FutureTask<Unit>>>()
        override fun nanoTime(): Long = 0
        override fun schedule(task: Runnable, delay: Duration): Future<*> =
            FutureTask(task, Unit).also { timers += delay to it }
        override fun await(done: CompletableFuture<*>, timeoutNanos: Long): Boolean = done.isDone
        fun fireAll() = generateSequence { timers.poll() }.forEach { it.second.run() }
    }

    @Test
    fun aDelayWaitsOnTheContextsClockAndResumesOnTheContext(): Unit = runBlocking {
        val clock = HeldClock()
        val ctx = RendererSyncContext.builder().name("held-clock").clock(clock).blockedThreshold(Duration.ZERO).build().also { contexts += it }
        val resumedOn = scope.async(ctx.asCoroutineDispatcher()) {
            delay(30_000)
            RendererSyncContext.current().orElse(null)
        }
        while (clock.timers.isEmpty()) yield()
        assertThat(clock.timers.single().first).describedAs("the delay is a timer on the context's clock")
            .isEqualTo(Duration.ofSeconds(30))
        assertThat(resumedOn.isCompleted).describedAs("nothing but the context's clock makes it due").isFalse()
        clock.fireAll()
        assertThat(withTimeout(10_000) { resumedOn.await() }).isSameAs(ctx)
    }

    @Test
    fun aCancelledDelayCancelsItsTimerOnTheContextsClock(): Unit = runBlocking {
        val clock = HeldClock()
        val ctx = RendererSyncContext.builder().name("held-clock-cancel").clock(clock)
            .blockedThreshold(Duration.ZERO).build().also { contexts += it }
        val job = scope.launch(ctx.asCoroutineDispatcher()) { delay(30_000) }
        while (clock.timers.isEmpty()) yield()
        job.cancel()
        job.join()
        assertThat(clock.timers.single().second.isCancelled).isTrue()
    }
}
