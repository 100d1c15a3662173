package dev.synccontext.spring.scope;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.autoconfigure.SyncContextAutoConfiguration;
import dev.synccontext.autoconfigure.scope.SyncContextScopeAutoConfiguration;
import dev.synccontext.spring.handler.OnContext;
import dev.synccontext.spring.webflux.OnContextHandlers;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.GeneratedFiles;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.core.io.InputStreamSource;
import org.springframework.javapoet.ClassName;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * What AOT processing writes for {@code @ContextScoped} and WebFlux {@code @OnContext} at build time: the
 * proxy classes the run time would otherwise define, with the hints a native image needs for them. Each test
 * has bean classes of its own: CGLIB caches a class per JVM, and a class made by an earlier test would not
 * be made (so not written) again. That the run time then loads these classes instead of defining them is
 * proven by aot-it's {@code AheadOfTimeApplicationTest}.
 */
class ContextScopedAheadOfTimeTest {

    @Test
    void theDispatchingSubclassIsWrittenAtBuildTimeWithItsHints() throws ClassNotFoundException {
        DefaultGenerationContext generation = process(ScopedBeans.class);
        String name = AotCounter.class.getName() + "$$SyncContextScope$$0";
        assertThat(classFiles(generation)).as("class files written by AOT processing")
                .containsKey(name.replace('.', '/') + ".class");
        RuntimeHints hints = generation.getRuntimeHints();
        // By its class (defined in this JVM while processing): a name with '$$' would be parsed as nested types.
        Class<?> proxyClass = Class.forName(name, false, AotCounter.class.getClassLoader());
        assertThat(RuntimeHintsPredicates.reflection().onType(proxyClass)
                .withMemberCategory(MemberCategory.UNSAFE_ALLOCATED)).as("allocation hint for the proxy class")
                .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(AotCounter.class, "added"))
                .as("invocation hint for the protected method the proxy calls by reflection").accepts(hints);
    }

    @Test
    void anOnContextWebFluxControllersProxyIsWrittenAtBuildTime() {
        DefaultGenerationContext generation = process(WebFluxBeans.class);
        assertThat(classFiles(generation).keySet()).as("class files written by AOT processing")
                .anyMatch(path -> path.startsWith(
                        AotController.class.getName().replace('.', '/') + "$$SpringCGLIB$$"));
    }

    private static DefaultGenerationContext process(Class<?> configuration) {
        AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
        context.register(SyncContextAutoConfiguration.class, SyncContextScopeAutoConfiguration.class, configuration);
        DefaultGenerationContext generation = new DefaultGenerationContext(
                new ClassNameGenerator(ClassName.get(configuration)), new InMemoryGeneratedFiles());
        new ApplicationContextAotGenerator().processAheadOfTime(context, generation);
        generation.writeGeneratedContent();
        return generation;
    }

    private static Map<String, InputStreamSource> classFiles(DefaultGenerationContext generation) {
        return ((InMemoryGeneratedFiles) generation.getGeneratedFiles()).getGeneratedFiles(GeneratedFiles.Kind.CLASS);
    }

    @Configuration(proxyBeanMethods = false)
    static class ScopedBeans {
        @Bean
        @ContextScoped
        AotCounter aotCounter() {
            return new AotCounter();
        }
    }

    public static class AotCounter {
        private int count;

        public int increment() {
            return added(1);
        }

        protected int added(int amount) {
            count += amount;
            return count;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class WebFluxBeans {
        @Bean
        static OnContextHandlers onContextHandlers() {
            return new OnContextHandlers(() -> {
                throw new IllegalStateException("not called while processing ahead of time");
            });
        }

        @Bean
        AotController aotController() {
            return new AotController();
        }
    }

    @RestController
    public static class AotController {
        @OnContext
        @GetMapping("/aot")
        public Mono<String> aot() {
            return Mono.just("aot");
        }
    }
}
