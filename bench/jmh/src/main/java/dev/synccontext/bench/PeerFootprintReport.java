package dev.synccontext.bench;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.scenario.IdleFootprint;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * {@link IdleFootprintReport}'s twin for the hand-off peers: heap retained per idle context, measured
 * the same way ({@code count} objects held in an array, heap use after three requested full GCs before
 * and after, the array itself subtracted; see {@code IdleFootprint}), for the peer's own per-context
 * object (Netty's ordered executor, kotlinx's {@code LimitedDispatcher}, gRPC's
 * {@code SynchronizationContext}, a Vert.x worker context) and for the whole adapter, beside our
 * context built the way the starter builds them (one shared builder). Each is measured fresh and
 * again after it ran one post and went idle (what a session's context is after its first request).
 *
 * <p>Run: {@code java -cp bench/jmh/target/benchmarks.jar dev.synccontext.bench.PeerFootprintReport 10000}.
 */
public final class PeerFootprintReport {

    private PeerFootprintReport() {
    }

    public static void main(String[] args) throws InterruptedException {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        System.out.println("Retained heap per idle context (" + count + " each, estimate), fresh / after one post:");
        RendererSyncContext.Builder shared = RendererSyncContext.builder().name("session");
        report("optimized-shared", "(ours, one shared builder, as the starter's registry does)", shared::build, count);
        reportBare("netty ordered executor", NettyNonStickyContext::bareExecutor, count);
        report(BenchModes.NETTY_NONSTICKY, "(adapter + executor)", NettyNonStickyContext::new, count);
        reportBare("kotlinx LimitedDispatcher", KotlinxLimitedContext::bareDispatcher, count);
        report(BenchModes.KOTLINX_LIMITED, "(adapter + dispatcher)", KotlinxLimitedContext::new, count);
        reportBare("grpc SynchronizationContext", GrpcSyncContext::bareContext, count);
        report(BenchModes.GRPC_SYNC, "(adapter + synchronization context)", GrpcSyncContext::new, count);
        reportBare("vertx worker context", VertxWorkerContext::bareContext, count);
        report(BenchModes.VERTX_WORKER, "(adapter + worker context)", VertxWorkerContext::new, count);
    }

    /** The peer's own object: fresh only (running a task on it needs the adapter's calls). */
    private static void reportBare(String label, Supplier<?> factory, int count) {
        IdleFootprint.bytesPerObject(factory, count); // warm up class loading
        System.out.println(String.format(Locale.ROOT, "  %-28s %8.1f B", label, IdleFootprint.bytesPerObject(factory, count)));
    }

    private static void report(String label, String note, Supplier<? extends RendererSyncContext> factory, int count)
            throws InterruptedException {
        IdleFootprint.bytesPerObject(factory, count);
        double fresh = IdleFootprint.bytesPerObject(factory, count);
        IdleFootprint.bytesPerObject(() -> usedOnce(factory), count);
        double used = IdleFootprint.bytesPerObject(() -> usedOnce(factory), count);
        System.out.println(String.format(Locale.ROOT, "  %-28s %8.1f B / %8.1f B   %s", label, fresh, used, note));
    }

    /** A context that ran one post and is idle again (the post's callback returned). */
    private static RendererSyncContext usedOnce(Supplier<? extends RendererSyncContext> factory) {
        RendererSyncContext context = factory.get();
        CountDownLatch ran = new CountDownLatch(1);
        context.post(ran::countDown);
        try {
            if (!ran.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException(context.name() + ": a post did not run within 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while " + context.name() + " ran its post", e);
        }
        return context;
    }
}
