package dev.synccontext.autoconfigure.session;

import dev.synccontext.spring.session.SessionContexts;

import org.jspecify.annotations.NullUnmarked;
import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.ForkJoinPool;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpSession;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import dev.synccontext.registry.ContextTemplate;
import dev.synccontext.registry.SyncContextRegistry;

/**
 * {@link SessionProxyBenchmark}'s comparison made robust against a noisy machine: one JVM runs the
 * {@code InvokeAsyncReady} loop through the three paths ({@code direct}, {@code handle},
 * {@code sessionScope}) in rounds of 20,000 calls each, the order rotated every round (after 200
 * warm-up rounds), and reports per-call medians and the medians of the per-round ratios to
 * {@code direct}. Noise hits all three parts of a round alike, so the ratios hold where absolute
 * figures wander.
 *
 * <p>Usage: {@code java -cp bench/jmh/target/benchmarks.jar dev.synccontext.autoconfigure.SessionProxyInterleaved [rounds, default 300]}.
 */
@NullUnmarked // a benchmark in the session part's package: JMH sets its state in @Setup
public final class SessionProxyInterleaved {

    private static final int CALLS = 20_000;
    private static final String[] PATHS = { "direct", "handle", "sessionScope" };
    private static int ran;
    private static final Runnable CALLBACK = () -> ran++;

    private SessionProxyInterleaved() {
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 300;
        SyncContextRegistry registry = new SyncContextRegistry(
                ContextTemplate.defaults(ForkJoinPool.commonPool(), "common-pool"));
        SessionContexts sessions = new SessionContexts(registry, "session", "bench", Duration.ofHours(1));
        MockHttpServletRequest request = new MockHttpServletRequest();
        request.setSession(new MockHttpSession());
        RequestContextHolder.setRequestAttributes(new ServletRequestAttributes(request));
        RendererSyncContext[] contexts = new RendererSyncContext[PATHS.length];
        for (int p = 0; p < PATHS.length; p++) {
            contexts[p] = SessionProxyBenchmark.build(PATHS[p], registry, sessions);
            contexts[p].name();
        }
        for (int w = 0; w < 200; w++) {
            for (RendererSyncContext context : contexts) {
                loop(context);
            }
        }
        double[][] perCall = new double[PATHS.length][rounds];
        double[][] ratio = new double[PATHS.length][rounds];
        for (int r = 0; r < rounds; r++) {
            long[] took = new long[PATHS.length];
            for (int i = 0; i < PATHS.length; i++) {
                int p = (r + i) % PATHS.length;
                took[p] = loop(contexts[p]);
            }
            for (int p = 0; p < PATHS.length; p++) {
                perCall[p][r] = took[p] / (double) CALLS;
                ratio[p][r] = took[p] / (double) took[0];
            }
        }
        StringBuilder out = new StringBuilder("InvokeAsyncReady per call, medians of " + rounds + " rounds of " + CALLS
                + " calls:");
        for (int p = 0; p < PATHS.length; p++) {
            Arrays.sort(perCall[p]);
            Arrays.sort(ratio[p]);
            out.append(String.format("%n  %-12s %7.2f ns   ratio to direct: p25 %.3f, median %.3f, p75 %.3f", PATHS[p],
                    perCall[p][rounds / 2], ratio[p][rounds / 4], ratio[p][rounds / 2], ratio[p][3 * rounds / 4]));
        }
        System.out.println(out.append(String.format("%n  (%d callbacks ran)", ran)));
        RequestContextHolder.resetRequestAttributes();
        sessions.close();
        registry.close();
    }

    private static long loop(RendererSyncContext context) {
        long start = System.nanoTime();
        for (int i = 0; i < CALLS; i++) {
            context.invokeAsync(CALLBACK).join();
        }
        return System.nanoTime() - start;
    }
}
