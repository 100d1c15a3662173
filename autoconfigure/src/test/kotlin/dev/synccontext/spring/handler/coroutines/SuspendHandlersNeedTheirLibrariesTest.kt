package dev.synccontext.spring.handler.coroutines

import dev.synccontext.autoconfigure.SyncContextAutoConfiguration
import dev.synccontext.spring.handler.OnContext
import dev.synccontext.autoconfigure.mvc.SyncContextMvcAutoConfiguration
import dev.synccontext.autoconfigure.session.SyncContextSessionAutoConfiguration
import dev.synccontext.autoconfigure.webflux.SyncContextWebFluxAutoConfiguration
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.springframework.boot.autoconfigure.AutoConfigurations
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration
import org.springframework.boot.test.context.FilteredClassLoader
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner
import org.springframework.boot.test.context.runner.WebApplicationContextRunner
import org.springframework.boot.webmvc.autoconfigure.DispatcherServletAutoConfiguration
import org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.RestController

/**
 * A suspend `@OnContext` handler never runs off its context for want of a library: without
 * `synccontext-kotlin` (hidden from the application's class loader here) the startup fails naming the
 * handler and the artifact to add, on both web stacks; with it, the same application starts.
 */
class SuspendHandlersNeedTheirLibrariesTest {

    private val mvc = WebApplicationContextRunner().withConfiguration(
        AutoConfigurations.of(
            SyncContextAutoConfiguration::class.java, SyncContextSessionAutoConfiguration::class.java,
            SyncContextMvcAutoConfiguration::class.java, WebMvcAutoConfiguration::class.java,
            DispatcherServletAutoConfiguration::class.java, HttpMessageConvertersAutoConfiguration::class.java,
        ),
    ).withUserConfiguration(MvcControllers::class.java)

    private val webFlux = ReactiveWebApplicationContextRunner().withConfiguration(
        AutoConfigurations.of(
            SyncContextAutoConfiguration::class.java, SyncContextSessionAutoConfiguration::class.java,
            SyncContextWebFluxAutoConfiguration::class.java,
        ),
    ).withUserConfiguration(WebFluxControllers::class.java)

    @Test
    fun withoutSynccontextKotlinAnMvcSuspendHandlerFailsTheStartupNamingItAndTheArtifact() {
        mvc.withClassLoader(FilteredClassLoader("dev.synccontext.kotlin")).run { context ->
            assertThat(context).failure
                .hasMessageContaining("MvcController#hello")
                .hasMessageContaining("is a Kotlin suspend function")
                .hasMessageContaining("add dev.synccontext:synccontext-kotlin to the application")
        }
        mvc.run { context -> assertThat(context).hasNotFailed() }
    }

    @Test
    fun withoutSynccontextKotlinAWebFluxSuspendHandlerFailsTheStartupNamingItAndTheArtifact() {
        webFlux.withClassLoader(FilteredClassLoader("dev.synccontext.kotlin")).run { context ->
            assertThat(context).failure.rootCause()
                .hasMessageContaining("@OnContext WebFlux handler WebFluxController#hello is a Kotlin suspend function")
                .hasMessageContaining("add dev.synccontext:synccontext-kotlin to the application")
        }
        webFlux.run { context -> assertThat(context).hasNotFailed() }
    }

    @Configuration(proxyBeanMethods = false)
    class MvcControllers {
        @Bean
        fun mvcController() = MvcController()
    }

    @RestController
    class MvcController {
        @OnContext
        @GetMapping("/hello")
        suspend fun hello(): String = "hello"
    }

    @Configuration(proxyBeanMethods = false)
    class WebFluxControllers {
        @Bean
        fun webFluxController() = WebFluxController()
    }

    @RestController
    open class WebFluxController {
        @OnContext
        @GetMapping("/hello")
        open suspend fun hello(): String = "hello"
    }
}
