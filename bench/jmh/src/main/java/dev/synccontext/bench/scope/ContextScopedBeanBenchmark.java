package dev.synccontext.bench.scope;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.ScopedSyncContext;
import dev.synccontext.autoconfigure.SyncContextAutoConfiguration;
import dev.synccontext.spring.scope.ContextScoped;
import dev.synccontext.autoconfigure.scope.SyncContextScopeAutoConfiguration;
import dev.synccontext.registry.SyncContextRegistry;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * One call inside a callback, 1,000 per invocation (the callback's own {@code invokeAsync} amortized over
 * them): {@code contextScopedBean} calls a method of a {@link ContextScoped} bean through its Spring scoped
 * proxy, as the starter builds it; {@code contextProxy} calls a method of the injected context proxy
 * ({@link ScopedSyncContext}, which resolves to the running callback's context); {@code plainField} calls
 * the same method on the bean itself, the floor. The goal: a context-scoped bean call within 1.5× a
 * call through the context proxy.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class ContextScopedBeanBenchmark {

    static final int CALLS = 1000;

    private ConfigurableApplicationContext spring;
    private RendererSyncContext context;
    private Counter bean;
    private Counter plain;
    private RendererSyncContext proxy;
    private long sink;

    @Setup(Level.Trial)
    public void setUp() {
        spring = new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE)
                .properties("spring.main.banner-mode=off", "logging.level.root=warn").run();
        SyncContextRegistry registry = spring.getBean(SyncContextRegistry.class);
        context = registry.forKey("bench");
        bean = spring.getBean(Counter.class);
        plain = new Counter();
        proxy = new ScopedSyncContext(registry, SyncContextRegistry.KEYED_SCOPE, () -> {
            throw new IllegalStateException("outside any callback");
        });
        context.invokeAsync(bean::value).join(); // create the context's instance before measuring
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        spring.close();
    }

    @Benchmark
    @OperationsPerInvocation(CALLS)
    public long contextScopedBean() {
        return context.invokeAsync(() -> {
            long sum = 0;
            for (int i = 0; i < CALLS; i++) {
                sum += bean.value();
            }
            return sum;
        }).join();
    }

    @Benchmark
    @OperationsPerInvocation(CALLS)
    public long contextProxy() {
        return context.invokeAsync(() -> {
            long sum = 0;
            for (int i = 0; i < CALLS; i++) {
                sum += proxy.queueDepth();
            }
            return sum;
        }).join();
    }

    @Benchmark
    @OperationsPerInvocation(CALLS)
    public long plainField() {
        return context.invokeAsync(() -> {
            long sum = 0;
            for (int i = 0; i < CALLS; i++) {
                sum += plain.value();
            }
            return sum;
        }).join();
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({ SyncContextAutoConfiguration.class, SyncContextScopeAutoConfiguration.class })
    static class App {

        @Bean
        @ContextScoped
        Counter counter() {
            return new Counter();
        }
    }

    /** Per-context state: a plain field. */
    public static class Counter {
        private int value = 1;

        public int value() {
            return value;
        }
    }
}
