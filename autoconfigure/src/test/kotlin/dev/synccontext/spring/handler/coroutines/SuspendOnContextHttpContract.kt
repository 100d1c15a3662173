package dev.synccontext.spring.handler.coroutines

import dev.synccontext.testing.Browser
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.time.Duration
import java.util.concurrent.CompletableFuture
import java.util.concurrent.TimeUnit
import org.assertj.core.api.Assertions.assertThat
import org.awaitility.Awaitility.await
import org.junit.jupiter.api.BeforeEach
import org.junit.jupiter.api.Test
import org.springframework.beans.factory.annotation.Autowired

/**
 * What Kotlin `suspend` `@OnContext` handlers guarantee on either web stack, over real HTTP: every part of the
 * coroutine, before and after each suspension, runs as a callback of the session's context, so 200 concurrent
 * requests of one session keep a plain-field counter exact; a part the context refuses answers 503 naming the
 * context. The premise: the same suspend handler without the annotation runs on no context at all. Each stack's
 * test supplies the application (the `/plain` and `/suspend` endpoints of `SuspendFixtures.kt`).
 */
abstract class SuspendOnContextHttpContract {

    @Autowired
    lateinit var witness: Witness

    @BeforeEach
    fun reset() = witness.reset()

    @Test
    fun withoutTheAnnotationASuspendHandlersPartsRunOnNoContext(browser: Browser) {
        browser.get("/plain/context")
        assertThat(browser.get("/plain/suspend-where").body()).isEqualTo("before none after none")
    }

    @Test
    fun everyPartOfConcurrentSuspendHandlersOfOneSessionRunsOnItsContextAndNoUpdateIsLost(browser: Browser) {
        val bodies = concurrentPosts(browser, "/suspend/increment", 200)
        assertThat(bodies).`as`("each request's last increment saw its own count").doesNotHaveDuplicates()
        assertThat(browser.get("/suspend/ledger").body()).isEqualTo("800 max-inside 1")
    }

    @Test
    fun aPartTheClosedContextRefusesAnswers503NamingTheContext(browser: Browser) {
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
        afterTheClosedContextRefused(browser)
    }

    /** What else a stack promises once the closed context has refused the parked part; nothing by default. */
    protected open fun afterTheClosedContextRefused(browser: Browser) {}

    /**
     * Sends [count] concurrent POSTs of one session to [path] (each names the session's context in `X-Context`)
     * and checks that all answered 200, that no part ran off the context, that each request checked its 4 parts
     * and left the context once in `withContext(Dispatchers.IO)`. Returns the bodies.
     */
    protected fun concurrentPosts(browser: Browser, path: String, count: Int): List<String> {
        val context = browser.get("/plain/context").body()
        val replies = (1..count).map {
            browser.httpClient().sendAsync(
                browser.request(path).header("X-Context", context)
                    .POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString(),
            )
        }
        CompletableFuture.allOf(*replies.toTypedArray()).orTimeout(120, TimeUnit.SECONDS).join()
        assertThat(replies.map { it.join().statusCode() }).`as`(replies.first().join().body()).containsOnly(200)
        assertThat(witness.wrong).`as`("parts that ran off the session's context").isEmpty()
        assertThat(witness.parts).`as`("parts checked: 4 per request").hasValue(4 * count)
        assertThat(witness.offContextInIo).`as`("withContext(Dispatchers.IO) leaves the context").hasValue(count)
        return replies.map { it.join().body() }
    }
}
