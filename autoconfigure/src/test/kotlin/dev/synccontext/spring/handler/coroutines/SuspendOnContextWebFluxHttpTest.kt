package dev.synccontext.spring.handler.coroutines

import dev.synccontext.RendererSyncContext
import dev.synccontext.spring.handler.OnContext
import dev.synccontext.testing.Browser
import dev.synccontext.testing.OnRandomPort
import kotlinx.coroutines.delay
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.springframework.boot.SpringBootConfiguration
import org.springframework.boot.autoconfigure.EnableAutoConfiguration
import org.springframework.context.annotation.Import
import org.springframework.core.env.Environment
import org.springframework.web.reactive.function.client.WebClient
import org.springframework.web.reactive.function.client.awaitBody
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.PostMapping
import org.springframework.web.bind.annotation.RequestHeader
import org.springframework.web.bind.annotation.RestController
import reactor.core.publisher.Mono

/**
 * Kotlin `suspend` `@OnContext` handlers in WebFlux, over real HTTP on Netty, where the session is the
 * WebSession: the guarantees of [SuspendOnContextHttpContract], and a handler that suspends on a WebClient call
 * resumes on the context too.
 */
@OnRandomPort(
    classes = [SuspendOnContextWebFluxHttpTest.App::class],
    properties = ["spring.main.web-application-type=reactive", "spring.webflux.problemdetails.enabled=true"],
)
class SuspendOnContextWebFluxHttpTest : SuspendOnContextHttpContract() {

    @Test
    fun aHandlerThatSuspendsOnDelayAWebClientCallAndDispatchersIoResumesOnTheContextEachTime(browser: Browser) {
        val bodies = concurrentPosts(browser, "/suspend/three", 50)
        assertThat(bodies).`as`("each answer carries the WebClient's reply").allMatch { it.endsWith(" pong") }
        assertThat(browser.get("/suspend/ledger").body()).isEqualTo("200 max-inside 1")
    }

    @SpringBootConfiguration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    @Import(Ledger::class, Witness::class, Controller::class)
    class App

    /** Open: an `@OnContext` WebFlux controller is proxied (a subclass). */
    @RestController
    open class Controller(private val ledger: Ledger, private val witness: Witness, private val environment: Environment) {

        private val webClient = WebClient.create()

        @GetMapping("/plain/context")
        open fun context(context: RendererSyncContext): Mono<String> = Mono.just(context.name())

        @GetMapping("/plain/pong")
        open fun pong(): Mono<String> = Mono.just("pong")

        /** Three suspensions of kinds a handler meets: `delay`, a WebClient call (to this server) and `withContext(IO)`. */
        @OnContext
        @PostMapping("/suspend/three")
        open suspend fun three(@RequestHeader("X-Context") expected: String): String {
            val port = environment.getRequiredProperty("local.server.port")
            var pong = ""
            val count = stepsOnTheContext(ledger, witness, expected, "a WebClient call") {
                pong = webClient.get().uri("http://127.0.0.1:$port/plain/pong").retrieve().awaitBody<String>()
            }
            return "$count $pong"
        }

        @GetMapping("/plain/suspend-where")
        open suspend fun plainWhere(): String {
            val before = where()
            delay(1)
            return "before $before after ${where()}"
        }

        @OnContext
        @PostMapping("/suspend/increment")
        open suspend fun increment(@RequestHeader("X-Context") expected: String): String =
            stepsOnTheContext(ledger, witness, expected).toString()

        @OnContext
        @GetMapping("/suspend/ledger")
        open suspend fun ledger(): String = ledger.report()

        @OnContext
        @PostMapping("/suspend/parked")
        open suspend fun parked(): String = parkUntilReleased(ledger, witness)
    }
}
