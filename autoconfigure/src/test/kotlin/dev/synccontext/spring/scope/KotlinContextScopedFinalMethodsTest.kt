package dev.synccontext.spring.scope

import dev.synccontext.registry.SyncContextRegistry
import dev.synccontext.spring.UnproxyableBeanException
import dev.synccontext.spring.handler.OnContext
import dev.synccontext.testing.Browser
import dev.synccontext.testing.OnRandomPort
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory
import org.springframework.beans.factory.support.BeanDefinitionRegistry
import org.springframework.beans.factory.support.RootBeanDefinition
import org.springframework.boot.SpringBootConfiguration
import org.springframework.boot.WebApplicationType
import org.springframework.boot.autoconfigure.EnableAutoConfiguration
import org.springframework.boot.builder.SpringApplicationBuilder
import org.springframework.context.annotation.Import
import org.springframework.core.NestedExceptionUtils
import org.springframework.stereotype.Component
import org.springframework.web.bind.annotation.PostMapping
import org.springframework.web.bind.annotation.RestController

/** An `open` Kotlin class with Kotlin's final methods: refused at startup; with `open` methods, sessions stay apart. */
@OnRandomPort(classes = [KotlinApp::class])
class KotlinContextScopedFinalMethodsTest {

    @Autowired
    lateinit var beanFactory: ConfigurableListableBeanFactory

    @Autowired
    lateinit var registry: SyncContextRegistry

    @Test
    fun twoSessionsNeverSeeEachOthersCount(a: Browser, b: Browser, c: Browser) {
        assertThat((1..3).map { a.post("/kcount").body() }).containsExactly("1", "2", "3")
        assertThat((1..2).map { b.post("/kcount").body() }).`as`("session B's own counter").containsExactly("1", "2")
        assertThat(c.post("/kcount").body()).`as`("no cookie: a new session").isEqualTo("1")
    }

    @Test
    fun premiseKotlinsFinalMethodBehindTheProxySharesOneCounterAcrossContexts() {
        val target = RootBeanDefinition(KotlinFinalCounter::class.java)
        target.scope = ContextScoped.SCOPE_NAME
        (beanFactory as BeanDefinitionRegistry).registerBeanDefinition("premise.kotlinFinalCounter", target)
        val factory = ContextScopedProxyFactoryBean()
        factory.setTargetBeanName("premise.kotlinFinalCounter")
        factory.setBeanFactory(beanFactory)
        val proxy = factory.getObject() as KotlinFinalCounter
        val a = registry.forKey("kpremise-a")
        val b = registry.forKey("kpremise-b")
        try {
            assertThat((1..3).map { a.invokeAsync<Int> { proxy.increment() }.join() }).containsExactly(1, 2, 3)
            assertThat((1..2).map { b.invokeAsync<Int> { proxy.increment() }.join() })
                .`as`("context B continues context A's count: the call ran on the proxy's own field")
                .containsExactly(4, 5)
        } finally {
            registry.remove("kpremise-a")
            registry.remove("kpremise-b")
        }
    }

    @Test
    fun anOpenClassWithFinalMethodsFailsTheStartupNamingTheKotlinFix() {
        assertThatThrownBy {
            SpringApplicationBuilder(KotlinFinalApp::class.java).web(WebApplicationType.NONE).run().close()
        }.satisfies({ failure ->
            assertThat(NestedExceptionUtils.getMostSpecificCause(failure))
                .isInstanceOf(UnproxyableBeanException::class.java)
                .hasMessageContaining("KotlinFinalCounter.increment()")
                .hasMessageContaining("kotlin-spring")
                .hasMessageContaining("open")
        })
    }
}

@SpringBootConfiguration
@EnableAutoConfiguration
@Import(KotlinOpenCounter::class, KotlinCounting::class)
open class KotlinApp

@SpringBootConfiguration
@EnableAutoConfiguration
@Import(KotlinFinalCounterComponent::class)
open class KotlinFinalApp

@Component
@ContextScoped
open class KotlinOpenCounter {
    private var count = 0

    open fun increment(): Int = ++count
}

open class KotlinFinalCounter {
    private var count = 0

    fun increment(): Int = ++count
}

@Component
@ContextScoped
open class KotlinFinalCounterComponent : KotlinFinalCounter()

@RestController
open class KotlinCounting(private val counter: KotlinOpenCounter) {
    @OnContext
    @PostMapping("/kcount")
    open fun count(): Int = counter.increment()
}
