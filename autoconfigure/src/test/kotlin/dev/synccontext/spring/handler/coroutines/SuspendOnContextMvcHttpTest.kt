package dev.synccontext.spring.handler.coroutines

import dev.synccontext.RendererSyncContext
import dev.synccontext.spring.handler.OnContext
import dev.synccontext.testing.Browser
import dev.synccontext.testing.OnRandomPort
import kotlinx.coroutines.delay
import org.assertj.core.api.Assertions.assertThat
import org.springframework.boot.SpringBootConfiguration
import org.springframework.boot.autoconfigure.EnableAutoConfiguration
import org.springframework.context.annotation.Import
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.PostMapping
import org.springframework.web.bind.annotation.RequestHeader
import org.springframework.web.bind.annotation.RestController

/**
 * Kotlin `suspend` `@OnContext` handlers in Spring MVC, over real HTTP on Tomcat: the guarantees of
 * [SuspendOnContextHttpContract], and after a refused part the session's next request runs on a new context.
 */
@OnRandomPort(
    classes = [SuspendOnContextMvcHttpTest.App::class],
    properties = ["spring.mvc.problemdetails.enabled=true"],
)
class SuspendOnContextMvcHttpTest : SuspendOnContextHttpContract() {

    /** On MVC the next request of the session runs on the session's new context, with a fresh ledger. */
    override fun afterTheClosedContextRefused(browser: Browser) {
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
