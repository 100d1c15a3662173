package dev.synccontext.autoconfigure.session;

import dev.synccontext.spring.session.CurrentHttpSessionContext;
import dev.synccontext.spring.session.SessionContexts;

import org.jspecify.annotations.NullUnmarked;
import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpSession;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import org.springframework.web.context.request.SessionScope;
import dev.synccontext.spring.ScopedSyncContext;
import dev.synccontext.registry.ContextTemplate;
import dev.synccontext.registry.SyncContextRegistry;

/**
 * {@code InvokeAsyncReady} (1000 × {@code invokeAsync(() -> {}).join()} on an idle context) through the
 * way a controller reaches its session's context, with a servlet request bound to the thread as during
 * a real request: {@code direct} (the context itself: the core's figure), {@code handle} (the injected
 * proxy as the starter builds it now: the session holds a handle, the node's context is cached in the
 * request after the first lookup) and {@code sessionScope} (the proxy as it was built before, over a
 * {@code @SessionScope} bean looked up in the bean factory on every call). Lives in the
 * auto-configuration's package to build the package-private proxy the way the starter does.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@NullUnmarked // a benchmark in the session part's package: JMH sets its state in @Setup
public class SessionProxyBenchmark {

    static final String TARGET = "scopedTarget.rendererSyncContext";

    @Param({"direct", "handle", "sessionScope"})
    public String path;

    private SyncContextRegistry registry;
    private SessionContexts sessions;
    private RendererSyncContext context;

    @Setup(Level.Trial)
    public void setUp() {
        registry = new SyncContextRegistry(ContextTemplate.defaults(ForkJoinPool.commonPool(), "common-pool"));
        sessions = new SessionContexts(registry, "session", "bench", Duration.ofHours(1));
        MockHttpServletRequest request = new MockHttpServletRequest();
        request.setSession(new MockHttpSession());
        RequestContextHolder.setRequestAttributes(new ServletRequestAttributes(request));
        context = build(path, registry, sessions);
        context.name(); // first lookup: creates the session's context
    }

    /**
     * The context as {@code path} reaches it; the calling thread must have request attributes bound
     * (with a session) when it is used.
     */
    static RendererSyncContext build(String path, SyncContextRegistry registry, SessionContexts sessions) {
        return switch (path) {
            case "direct" -> new CurrentHttpSessionContext(sessions).current();
            case "handle" -> new ScopedSyncContext(registry, "session", new CurrentHttpSessionContext(sessions)::current);
            case "sessionScope" -> {
                DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
                beans.registerScope("session", new SessionScope());
                RootBeanDefinition definition = new RootBeanDefinition(RendererSyncContext.class,
                        () -> registry.create("session"));
                definition.setScope("session");
                beans.registerBeanDefinition(TARGET, definition);
                yield new ScopedSyncContext(registry, "session",
                        () -> beans.getBean(TARGET, RendererSyncContext.class));
            }
            default -> throw new IllegalArgumentException("path: direct, handle or sessionScope");
        };
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        RequestContextHolder.resetRequestAttributes();
        sessions.close();
        registry.close();
    }

    @Benchmark
    @OperationsPerInvocation(1000)
    public void invokeAsyncReady() {
        RendererSyncContext c = context;
        for (int i = 0; i < 1000; i++) {
            c.invokeAsync(() -> { }).join();
        }
    }
}
