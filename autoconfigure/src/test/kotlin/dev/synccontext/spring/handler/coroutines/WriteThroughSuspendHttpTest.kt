package dev.synccontext.spring.handler.coroutines

import dev.synccontext.ContextClock
import dev.synccontext.spring.durable.ForwardingStateStore
import dev.synccontext.spring.durable.InMemoryStateStore
import dev.synccontext.spring.durable.StateStore
import dev.synccontext.spring.durable.WriteOutcome
import dev.synccontext.spring.durable.session.Durable
import dev.synccontext.spring.handler.OnContext
import dev.synccontext.spring.scope.ContextScoped
import dev.synccontext.testing.Browser
import java.time.Duration
import kotlinx.coroutines.delay
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.EnumSource
import org.springframework.boot.SpringBootConfiguration
import org.springframework.boot.autoconfigure.EnableAutoConfiguration
import org.springframework.boot.builder.SpringApplicationBuilder
import org.springframework.boot.web.server.context.WebServerApplicationContext
import org.springframework.context.ConfigurableApplicationContext
import org.springframework.context.annotation.Import
import org.springframework.web.bind.annotation.PostMapping
import org.springframework.web.bind.annotation.RestController

/**
 * `synccontext.durable.write-through=true` for Kotlin `suspend` `@OnContext` handlers, over real HTTP on Tomcat
 * (Spring MVC) and on Netty (WebFlux), one node at a time on the in-memory store behind [RecordingStore]: the
 * answer of a body that changes its durable bean and then suspends is given only after the store accepted the
 * snapshot of the change; a refused or unconfirmed write is answered 503, never success. The debounce is an hour, so
 * only write-through can have written anything while a test runs; the premise (write-through off) shows answers
 * with nothing stored.
 */
class WriteThroughSuspendHttpTest {

    enum class Stack(val webApplicationType: String) { MVC("servlet"), WEBFLUX("reactive") }

    private val store = RecordingStore(InMemoryStateStore(ContextClock.system()))

    // One node at a time: closing a Netty server disposes Reactor Netty's shared loops, which another would use.
    private var node: ConfigurableApplicationContext? = null

    @AfterEach
    fun stop() {
        node?.close()
    }

    @ParameterizedTest
    @EnumSource(Stack::class)
    fun eachSuspendAnswerIsGivenOnlyAfterItsSnapshotWasAccepted(stack: Stack) {
        val browser = start(stack, writeThrough = true)
        for (i in 1..5) {
            val reply = browser.post("/counter")
            assertThat(reply.body()).`as`("status %s", reply.statusCode()).isEqualTo("$i")
            assertThat(store.lastAccepted()).`as`("the snapshot accepted before answer %d was given", i)
                .contains("\"count\":$i")
        }
        assertThat(store.acceptedCount()).`as`("one write per changing answer").isEqualTo(5)
        assertThat(browser.post("/counter/read").body()).isEqualTo("5")
        assertThat(store.acceptedCount()).`as`("a suspend answer that changed nothing writes nothing").isEqualTo(5)
    }

    @ParameterizedTest
    @EnumSource(Stack::class)
    fun withoutWriteThroughTheSuspendAnswerComesBeforeTheDebouncedWrite(stack: Stack) {
        val browser = start(stack, writeThrough = false)
        for (i in 1..3) {
            assertThat(browser.post("/counter").body()).isEqualTo("$i")
        }
        assertThat(store.acceptedCount()).`as`("the premise: answers shown, nothing stored yet (debounce 1 h)").isZero()
    }

    @ParameterizedTest
    @EnumSource(Stack::class)
    fun aRefusedOrUnconfirmedWriteIsAnswered503AndTheRetryContinuesFromTheStoredState(stack: Stack) {
        val browser = start(stack, writeThrough = true)
        browser.post("/counter")
        browser.post("/counter")
        store.refuse = true
        val refused = browser.post("/counter")
        assertThat(refused.statusCode()).`as`(refused.body()).isEqualTo(503)
        assertThat(refused.headers().firstValue("Retry-After")).`as`("Retry-After").isPresent()
        store.refuse = false
        assertThat(browser.post("/counter").body()).`as`("the unsaved 3 was never shown as success, nor kept")
            .isEqualTo("3")

        store.fail = true
        val failed = browser.post("/counter")
        assertThat(failed.statusCode()).`as`(failed.body()).isEqualTo(503)
        store.fail = false
        assertThat(browser.post("/counter").body()).isEqualTo("4")
        assertThat(store.lastAccepted()).contains("\"count\":4")
    }

    private fun start(stack: Stack, writeThrough: Boolean): Browser {
        val started = SpringApplicationBuilder(App::class.java)
            .initializers({ context -> context.beanFactory.registerSingleton("recordingStore", store) })
            .properties(
                "server.port=0", "spring.main.banner-mode=off",
                "spring.main.web-application-type=${stack.webApplicationType}",
                "synccontext.durable.debounce=1h", "synccontext.durable.write-through=$writeThrough",
            )
            .run()
        node = started
        return Browser((started as WebServerApplicationContext).webServer!!.port)
    }

    @SpringBootConfiguration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    @Import(SuspendCounter::class, CounterController::class)
    class App

    /** Kept in the store. Open: the context-scoped proxy is a subclass. */
    @ContextScoped
    @Durable(name = "counter")
    open class SuspendCounter {
        open var count: Int = 0

        open fun increment(): Int = ++count
    }

    /** Open: an `@OnContext` WebFlux controller is proxied (a subclass). */
    @RestController
    open class CounterController(private val counter: SuspendCounter) {

        /** Changes the bean in its first part and answers after a suspension: the answer's part is a later callback. */
        @OnContext
        @PostMapping("/counter")
        open suspend fun increment(): String {
            val count = counter.increment()
            delay(1)
            return "$count"
        }

        @OnContext
        @PostMapping("/counter/read")
        open suspend fun read(): String {
            delay(1)
            return "${counter.count}"
        }
    }

    /** The in-memory store, recording accepted snapshots; `refuse` answers STALE, `fail` throws. */
    class RecordingStore(delegate: StateStore) : ForwardingStateStore(delegate) {
        private val accepted = mutableListOf<String>()

        @Volatile
        var refuse = false

        @Volatile
        var fail = false

        @Synchronized
        fun acceptedCount(): Int = accepted.size

        @Synchronized
        fun lastAccepted(): String = accepted.lastOrNull() ?: ""

        override fun write(handle: String, token: Long, snapshot: ByteArray, idleTimeout: Duration): WriteOutcome {
            check(!fail) { "the store is down (test)" }
            if (refuse) {
                return WriteOutcome.STALE
            }
            val outcome = super.write(handle, token, snapshot, idleTimeout)
            if (outcome == WriteOutcome.ACCEPTED) {
                synchronized(this) { accepted.add(String(snapshot, Charsets.UTF_8)) }
            }
            return outcome
        }
    }
}
