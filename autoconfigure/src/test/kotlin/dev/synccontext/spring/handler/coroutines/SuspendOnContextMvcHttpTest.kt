package dev.synccontext.spring.handler.coroutines

import dev.synccontext.RendererSyncContext
import dev.synccontext.spring.handler.OnContext
import dev.synccontext.testing.Browser
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.time.Duration
import java.util.concurrent.CompletableFuture
import java.util.concurrent.TimeUnit
import kotlinx.coroutines.delay
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
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.PostMapping
import org.springframework.web.bind.annotation.RequestHeader
import org.springframework.web.bind.annotation.RestController

/**
 * Kotlin `suspend` `@OnContext` handlers in Spring MVC, over real HTTP on Tomcat: every part of the coroutine,
 * before and after each suspension, runs as a callback of the session's context, so 200 concurrent requests of
 * one session keep a plain-field counter exact; a part the context refuses answers 503. The premise: the same
 * suspend handler without the annotation runs on no context at all.
 */
@SpringBootTest(
    classes = [SuspendOnContextMvcHttpTest.App::class],
    webEnvironment = WebEnvironment.RANDOM_PORT,
    properties = ["spring.mvc.problemdetails.enabled=true"],
)
class SuspendOnContextMvcHttpTest {

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
    fun everyPartOfConcurrentSuspendHandlersOfOneSessionRunsOnItsContextAndNoUpdateIsLost() {
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
        assertThat(witness.wrong).`as`("parts that ran off the session's context").isEmpty()
        assertThat(witness.parts).`as`("parts checked: 4 per request").hasValue(800)
        assertThat(witness.offContextInIo).`as`("withContext(Dispatchers.IO) leaves the context").hasValue(200)
        assertThat(replies.map { it.join().body() }).`as`("each request's last increment saw its own count").doesNotHaveDuplicates()
        assertThat(browser.get("/suspend/ledger").body()).isEqualTo("800 max-inside 1")
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
        parkedOn.close() // as when the session ends while the coroutine is suspended
        witness.unpark.complete(Unit) // its next part is dispatched to the closed context
        val answer = reply.orTimeout(30, TimeUnit.SECONDS).join()
        assertThat(answer.statusCode()).`as`(answer.body()).isEqualTo(503)
        assertThat(answer.body()).contains("did not run to its end").contains(parkedOn.name())
        assertThat(browser.get("/suspend/ledger").body()).`as`("the next request runs on the session's new context")
            .isEqualTo("0 max-inside 0")
    }

    @SpringBootConfiguration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    @Import(Ledger::class, Witness::class, Controller::class)
    class App

    @RestController
    class Controller(
        private val ledger: Ledger,
        private val witness: Witness,
        private val context: RendererSyncContext,
    ) {

        /** The session's context, as the injected proxy resolves it on the request thread. */
        @GetMapping("/plain/context")
        fun context(): String = context.name()

        @GetMapping("/plain/suspend-where")
        suspend fun plainWhere(): String {
            val before = where()
            delay(1)
            return "before $before after ${where()}"
        }

        @OnContext
        @PostMapping("/suspend/increment")
        suspend fun increment(@RequestHeader("X-Context") expected: String): String =
            stepsOnTheContext(ledger, witness, expected).toString()

        @OnContext
        @GetMapping("/suspend/ledger")
        suspend fun ledger(): String = ledger.report()

        @OnContext
        @PostMapping("/suspend/parked")
        suspend fun parked(): String = parkUntilReleased(ledger, witness)
    }
}
