package dev.synccontext.spring.handler.coroutines

import dev.synccontext.RendererSyncContext
import dev.synccontext.spring.handler.OnContext
import dev.synccontext.testing.Browser
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.time.Duration
import java.util.concurrent.CompletableFuture
import java.util.concurrent.TimeUnit
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.delay
import kotlinx.coroutines.withContext
import org.assertj.core.api.Assertions.assertThat
import org.awaitility.Awaitility.await
import org.junit.jupiter.api.BeforeEach
import org.junit.jupiter.api.Test
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.boot.SpringBootConfiguration
import org.springframework.boot.autoconfigure.EnableAutoConfiguration
import org.springframework.boot.test.context.SpringBootTest
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment
import org.springframework.boot.test.web.server.LocalServerPort
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
 * Kotlin `suspend` `@OnContext` handlers in WebFlux, over real HTTP on Netty: every part of the coroutine runs
 * as a callback of the WebSession's context, so 200 concurrent requests of one session keep a plain-field
 * counter exact; a part the context refuses answers 503. The premise: without the annotation the same handler
 * runs on no context.
 */
@SpringBootTest(
    classes = [SuspendOnContextWebFluxHttpTest.App::class],
    webEnvironment = WebEnvironment.RANDOM_PORT,
    properties = ["spring.main.web-application-type=reactive", "spring.webflux.problemdetails.enabled=true"],
)
class SuspendOnContextWebFluxHttpTest {

    @LocalServerPort
    var port: Int = 0

    @Autowired
    lateinit var witness: Witness

    @BeforeEach
    fun reset() = witness.reset()

    @Test
    fun withoutTheAnnotationASuspendHandlersPartsRunOnNoContext() {
        val browser = Browser(port)
        browser.get("/plain/context")
        assertThat(browser.get("/plain/suspend-where").body()).isEqualTo("before none after none")
    }

    @Test
    fun everyPartOfConcurrentSuspendHandlersOfOneWebSessionRunsOnItsContextAndNoUpdateIsLost() {
        val browser = Browser(port)
        val context = browser.get("/plain/context").body()
        val replies = (1..200).map {
            browser.httpClient().sendAsync(
                browser.request("/suspend/increment").header("X-Context", context)
                    .POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString(),
            )
        }
        CompletableFuture.allOf(*replies.toTypedArray()).orTimeout(120, TimeUnit.SECONDS).join()
        assertThat(replies.map { it.join().statusCode() }).`as`(replies.first().join().body()).containsOnly(200)
        assertThat(witness.wrong).`as`("parts that ran off the WebSession's context").isEmpty()
        assertThat(witness.parts).`as`("parts checked: 4 per request").hasValue(800)
        assertThat(witness.offContextInIo).`as`("withContext(Dispatchers.IO) leaves the context").hasValue(200)
        assertThat(replies.map { it.join().body() }).`as`("each request's last increment saw its own count").doesNotHaveDuplicates()
        assertThat(browser.get("/suspend/ledger").body()).isEqualTo("800 max-inside 1")
    }

    @Test
    fun aHandlerThatSuspendsOnDelayAWebClientCallAndDispatchersIoResumesOnTheContextEachTime() {
        val browser = Browser(port)
        val context = browser.get("/plain/context").body()
        val replies = (1..50).map {
            browser.httpClient().sendAsync(
                browser.request("/suspend/three").header("X-Context", context)
                    .POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString(),
            )
        }
        CompletableFuture.allOf(*replies.toTypedArray()).orTimeout(120, TimeUnit.SECONDS).join()
        assertThat(replies.map { it.join().statusCode() }).`as`(replies.first().join().body()).containsOnly(200)
        assertThat(witness.wrong).`as`("parts that ran off the WebSession's context").isEmpty()
        assertThat(witness.parts).`as`("parts checked: 4 per request").hasValue(200)
        assertThat(witness.offContextInIo).`as`("withContext(Dispatchers.IO) leaves the context").hasValue(50)
        assertThat(replies.map { it.join().body() }).`as`("each answer carries the WebClient's reply").allMatch { it.endsWith(" pong") }
        assertThat(browser.get("/suspend/ledger").body()).isEqualTo("200 max-inside 1")
    }

    @Test
    fun aPartTheClosedContextRefusesAnswers503NamingTheContext() {
        val browser = Browser(port)
        browser.get("/plain/context")
        val reply = browser.httpClient().sendAsync(
            browser.request("/suspend/parked").POST(HttpRequest.BodyPublishers.noBody()).build(),
            HttpResponse.BodyHandlers.ofString(),
        )
        await().atMost(Duration.ofSeconds(30)).until { witness.parkedOn != null }
        val parkedOn = witness.parkedOn!!
        parkedOn.close()
        witness.unpark.complete(Unit)
        val answer = reply.orTimeout(30, TimeUnit.SECONDS).join()
        assertThat(answer.statusCode()).`as`(answer.body()).isEqualTo(503)
        assertThat(answer.body()).contains("did not run to its end").contains(parkedOn.name())
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

        /** The three suspensions: `delay`, a WebClient call (to this server) and `withContext(IO)`. */
        @OnContext
        @PostMapping("/suspend/three")
        open suspend fun three(@RequestHeader("X-Context") expected: String): String {
            witness.part(expected, "the first part")
            ledger.increment()
            delay(1)
            witness.part(expected, "the part after delay")
            ledger.increment()
            val port = environment.getRequiredProperty("local.server.port")
            val pong = webClient.get().uri("http://127.0.0.1:$port/plain/pong").retrieve().awaitBody<String>()
            witness.part(expected, "the part after a WebClient call")
            ledger.increment()
            withContext(Dispatchers.IO) {
                if (RendererSyncContext.current().isEmpty) {
                    witness.offContextInIo.incrementAndGet()
                }
            }
            witness.part(expected, "the part after withContext(Dispatchers.IO)")
            return "${ledger.increment()} $pong"
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
