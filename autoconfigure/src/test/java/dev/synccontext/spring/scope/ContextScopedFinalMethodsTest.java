package dev.synccontext.spring.scope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.spring.UnproxyableBeanException;
import dev.synccontext.spring.handler.OnContext;
import dev.synccontext.testing.Browser;
import dev.synccontext.testing.OnRandomPort;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.annotation.Bean;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.annotation.Import;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A class-based proxy cannot override a final method, so a call to it runs on the proxy's own fields: one
 * object for every session. The startup check refuses such a class; with it, two sessions never share state.
 */
@OnRandomPort(classes = ContextScopedFinalMethodsTest.App.class)
class ContextScopedFinalMethodsTest {

    @Autowired
    ConfigurableListableBeanFactory beanFactory;

    @Autowired
    SyncContextRegistry registry;

    @Test
    void twoSessionsNeverSeeEachOthersCount(Browser a, Browser b, Browser c) {
        assertThat(List.of(a.post("/count").body(), a.post("/count").body(), a.post("/count").body()))
                .containsExactly("1", "2", "3");
        assertThat(List.of(b.post("/count").body(), b.post("/count").body())).as("session B's own counter")
                .containsExactly("1", "2");
        assertThat(c.post("/count").body()).as("a request with no cookie: a new session").isEqualTo("1");
    }

    @Test
    void premiseAFinalMethodBehindTheProxySharesOneCounterAcrossContexts() {
        // The bean is registered after startup, so the check never sees it: what an application got before.
        RootBeanDefinition target = new RootBeanDefinition(FinalCounter.class);
        target.setScope(ContextScoped.SCOPE_NAME);
        ((BeanDefinitionRegistry) beanFactory).registerBeanDefinition("premise.finalCounter", target);
        ContextScopedProxyFactoryBean factory = new ContextScopedProxyFactoryBean();
        factory.setTargetBeanName("premise.finalCounter");
        factory.setBeanFactory(beanFactory);
        FinalCounter proxy = (FinalCounter) factory.getObject();
        RendererSyncContext a = registry.forKey("premise-a");
        RendererSyncContext b = registry.forKey("premise-b");
        try {
            assertThat(List.of(a.invokeAsync(proxy::increment).join(), a.invokeAsync(proxy::increment).join(),
                    a.invokeAsync(proxy::increment).join())).containsExactly(1, 2, 3);
            assertThat(List.of(b.invokeAsync(proxy::increment).join(), b.invokeAsync(proxy::increment).join()))
                    .as("context B continues context A's count: the call ran on the proxy's own field")
                    .containsExactly(4, 5);
        } finally {
            registry.remove("premise-a");
            registry.remove("premise-b");
        }
    }

    @Test
    void aContextScopedBeanWithAFinalMethodFailsTheStartupNamingTheMethodAndTheFix() {
        assertThatThrownBy(() -> start(FinalCounterApp.class)).satisfies(failure -> {
            Throwable cause = NestedExceptionUtils.getMostSpecificCause(failure);
            assertThat(cause).isInstanceOf(UnproxyableBeanException.class)
                    .hasMessageContaining(FinalCounter.class.getName())
                    .hasMessageContaining("FinalCounter.increment()")
                    .hasMessageContaining("Remove 'final'");
        });
    }

    @Test
    void aProxiedOnContextControllerWithAFinalMethodFailsTheStartup() {
        assertThatThrownBy(() -> start(FinalControllerApp.class)).satisfies(failure -> assertThat(
                NestedExceptionUtils.getMostSpecificCause(failure)).isInstanceOf(UnproxyableBeanException.class)
                .hasMessageContaining("@OnContext").hasMessageContaining("FinalController.edit()"));
    }

    private static void start(Class<?> app) {
        new SpringApplicationBuilder(app).web(WebApplicationType.NONE).run("--spring.main.banner-mode=off").close();
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({ OpenCounter.class, Counting.class })
    static class App {
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(FinalCounterComponent.class)
    static class FinalCounterApp {
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(FinalController.class)
    static class FinalControllerApp {
        /** Stands for any aspect that proxies the controller by its class (validation, security, WebFlux's). */
        @Bean
        static BeanPostProcessor proxyingControllers() {
            return new BeanPostProcessor() {
                @Override
                public Object postProcessAfterInitialization(Object bean, String beanName) {
                    if (!(bean instanceof FinalController)) {
                        return bean;
                    }
                    ProxyFactory proxy = new ProxyFactory(bean);
                    proxy.setProxyTargetClass(true);
                    proxy.addAdvice((MethodInterceptor) MethodInvocation::proceed);
                    return proxy.getProxy();
                }
            };
        }
    }

    @Component
    @ContextScoped
    static class OpenCounter {
        private int count;

        public int increment() {
            return ++count;
        }
    }

    static class FinalCounter {
        private int count;

        public final int increment() {
            return ++count;
        }
    }

    @Component
    @ContextScoped
    static class FinalCounterComponent extends FinalCounter {
    }

    @RestController
    static class Counting {
        private final OpenCounter counter;

        Counting(OpenCounter counter) {
            this.counter = counter;
        }

        @OnContext
        @PostMapping("/count")
        int count() {
            return counter.increment();
        }
    }

    @RestController
    static class FinalController {
        @OnContext
        @PostMapping("/edit")
        public final String edit() {
            return "edited";
        }
    }
}
