package dev.synccontext.bench;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.internal.VertxInternal;

/**
 * {@code vertx-worker}: one Vert.x worker context per context (vertx-core 5.0.7, running on Spring
 * Boot's Netty, see docs/2026-12-02-bench-figures.md, "Peers"), all from one shared {@code Vertx} with daemon threads
 * and the default worker pool (20 threads). {@code runOnContext} on a worker context puts the handler
 * in the context's ordered task queue, which runs one task at a time on the worker pool. Every call is
 * a hand-off, even on an idle context. Worker contexts are made with {@code VertxInternal.createWorkerContext()},
 * the call Vert.x uses for a worker verticle's context (the public API reaches one only by deploying
 * a verticle).
 *
 * <p>Guarantee (see {@link AlternativeContext}): the ordered queue runs one task at a time in FIFO
 * order; the handler given to {@code runOnContext} (one object per call, which the API needs anyway)
 * sets the adapter's owner token, so a nested call runs at once.
 */
final class VertxWorkerContext extends HandOffContext {

    private static final VertxInternal VERTX = (VertxInternal) Vertx.vertx(new VertxOptions().setUseDaemonThread(true));

    private final Context worker;

    VertxWorkerContext() {
        super("vertx-worker");
        worker = bareContext();
    }

    /** The peer's own per-context object, for the footprint report. */
    static Context bareContext() {
        return VERTX.createWorkerContext();
    }

    @Override
    void handOff(Runnable task) {
        worker.runOnContext(ignored -> runOwned(task));
    }

    /** The owner token is set by the handler {@link #handOff} makes instead: one object per call, not two. */
    @Override
    Runnable asTask(Runnable callback) {
        return callback;
    }
}
