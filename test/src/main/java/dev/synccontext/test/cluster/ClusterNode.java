package dev.synccontext.test.cluster;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.SyncContextDefaults;
import dev.synccontext.live.LiveChannelGroup;
import dev.synccontext.registry.ContextTemplate;
import dev.synccontext.registry.ShutdownDrain;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.spring.durable.SnapshotCodec;
import dev.synccontext.spring.durable.session.DurableContexts;
import dev.synccontext.spring.durable.session.DurableCounters;
import dev.synccontext.spring.durable.session.StoreHealth;
import dev.synccontext.spring.session.SessionContexts;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * One node of an {@link InMemoryCluster}: a process that can be started, deployed, killed and stalled. Each start
 * is a fresh <em>instance</em> built as the starter builds a node: its own {@link SyncContextRegistry} (on the kit's
 * executor and virtual clock), its {@link SessionContexts}, and a {@link DurableContexts} on the cluster's shared
 * store, with node id {@code name-N} for the N-th start (node ids are unique per process start).
 *
 * <h2>What each operation means</h2>
 * <ul>
 *   <li>{@link #kill()}: SIGKILL. The instance's contexts, beans, queued callbacks, pending writes and renewals are
 *       gone at once; requests in flight fail with {@link NodeDownException}. Nothing is written or released: its
 *       lease ends only when virtual time passes its ttl, and its sessions wait for that.</li>
 *   <li>{@link #deploy()}: a graceful restart, as the starter stops: the shutdown drain refuses new work, queued
 *       callbacks finish, then every durable session writes its final snapshot and is released; the node lease is
 *       released, then a new, empty instance starts.</li>
 *   <li>{@link #pause()} / {@link #resume()}: a stalled process (a long GC pause, SIGSTOP). Nothing of the node runs
 *       (callbacks, request threads, store writes, renewals, hand-off messages wait), while virtual time and the
 *       other nodes go on: its lease times out in the store. On resume the held work runs in order.</li>
 * </ul>
 * All of it runs on the kit's executor, so an exploring kit interleaves it with the other nodes' work.
 */
public final class ClusterNode {

    /** Whether the node runs. */
    public enum State {
        /** Serving. */
        UP,
        /** Stalled: accepts requests, runs nothing until resumed. */
        PAUSED,
        /** Killed or stopped: requests fail with {@link NodeDownException}. */
        DOWN
    }

    private final InMemoryCluster cluster;
    private final String name;
    private int starts;
    private @Nullable Instance instance;

    ClusterNode(InMemoryCluster cluster, String name) {
        this.cluster = cluster;
        this.name = name;
    }

    /** The node's name (what routing and handles know it by). */
    public String name() {
        return name;
    }

    /** The id of the running instance in the store ({@code name-N}); empty string when down. */
    public synchronized String id() {
        Instance running = instance;
        return running == null ? "" : running.id;
    }

    /** Up, paused or down. */
    public synchronized State state() {
        Instance running = instance;
        if (running == null) {
            return State.DOWN;
        }
        return running.gate.state() == NodeGate.State.PAUSED ? State.PAUSED : State.UP;
    }

    /** What the running instance's durable layer did since it started. */
    public synchronized DurableCounters counters() {
        return require("counters").durable.counters();
    }

    /** Requests on the running instance waiting now for another node to hand their session over. */
    public synchronized int handOffWaits() {
        return require("handOffWaits").durable.handOffWaits();
    }

    /** Whether the running instance reaches the store, as its last store call found it. */
    public synchronized StoreHealth.Status storeHealth() {
        return require("storeHealth").durable.storeHealth().status();
    }

    /**
     * Serves a request of {@code session} on this node: binds the session's handle (as the starter does for an
     * HTTP session), runs {@code callback} on the session's context (inline when idle, as {@code @OnContext}
     * does) and completes with its result. The request arrives as a task of the kit's executor.
     *
     * @return completes with the callback's result, or with its failure, or with {@link NodeDownException}
     */
    public <T> CompletableFuture<T> call(String session, Function<SessionCall, T> callback) {
        CompletableFuture<T> answer = new CompletableFuture<>();
        cluster.kit().executor().execute(() -> arrive(session, callback, answer));
        return answer;
    }

    private <T> void arrive(String session, Function<SessionCall, T> callback, CompletableFuture<T> answer) {
        Instance running;
        synchronized (this) {
            running = instance;
        }
        if (running == null) {
            answer.completeExceptionally(new NodeDownException("Node '" + name + "' is down; the request of session '"
                    + session + "' was refused"));
            return;
        }
        running.serve(session, callback, answer);
    }

    /** Starts a new instance; the node must be down. */
    public synchronized void start() {
        if (instance != null) {
            throw new IllegalStateException("Node '" + name + "' runs already (" + instance.id + ")");
        }
        instance = new Instance(name + "-" + (++starts));
        instance.start();
    }

    /** SIGKILL: see the class description. */
    public void kill() {
        Instance killed;
        synchronized (this) {
            killed = require("kill");
            instance = null;
        }
        killed.kill();
    }

    /** A graceful stop, without starting again. */
    public void stop() {
        Instance stopped;
        synchronized (this) {
            stopped = require("stop");
            instance = null;
        }
        stopped.stop();
    }

    /** A graceful restart: {@link #stop()}, then {@link #start()}. */
    public void deploy() {
        stop();
        start();
    }

    /** Stalls the node: see the class description. */
    public synchronized void pause() {
        require("pause").gate.pause();
    }

    /** Lets a stalled node run again; its held work runs first, in order. */
    public synchronized void resume() {
        require("resume").gate.resume();
    }

    private Instance require(String what) {
        Instance running = instance;
        if (running == null) {
            throw new IllegalStateException("Node '" + name + "' is down: cannot " + what + " it; start() it first");
        }
        return running;
    }

    @Override
    public String toString() {
        return "ClusterNode[" + name + ", " + state() + (instance == null ? "" : ", " + instance.id) + "]";
    }

    /** One start of the node: everything a process holds. */
    final class Instance {

        final String id;
        final NodeGate gate;
        final NodeStore store;
        final SyncContextRegistry registry;
        final SessionContexts sessions;
        final DurableContexts durable;
        /** Each session context's beans, as the context scope keeps them (dropped with the context). */
        private final Map<RendererSyncContext, Map<Class<?>, Object>> beans = new ConcurrentHashMap<>();
        private final Set<CompletableFuture<?>> inFlight = ConcurrentHashMap.newKeySet();

        Instance(String id) {
            this.id = id;
            InMemoryCluster.Settings settings = cluster.settings();
            gate = new NodeGate(cluster.kit().executor());
            store = new NodeStore(cluster.store(), gate);
            ContextTemplate template = new ContextTemplate(gate, "node " + id,
                    cluster.kit().seed().isPresent() ? 1 : SyncContextDefaults.MAX_BATCH,
                    SyncContextDefaults.MAX_QUEUE_DEPTH, java.time.Duration.ZERO, settings.shutdownTimeout(),
                    cluster.kit().decorator());
            registry = new SyncContextRegistry(template, null,
                    List.of(builder -> builder.unhandledExceptionHandler(cluster.kit().unhandledExceptionHandler())),
                    cluster.kit().clock());
            sessions = new SessionContexts(registry, "session", id, settings.durable().idleTimeout());
            SnapshotCodec.Builder codec = SnapshotCodec.builder(cluster.mapper()).maxBytes(settings.maxBytes());
            cluster.types().values().forEach(codec::register);
            durable = new DurableContexts(registry, store, codec.build(), cluster.mapper(), cluster.types(),
                    settings.durable(), id, gate);
            sessions.listen(durable);
            // As the scope: a released context's beans go with its last callback, after the callbacks queued before.
            registry.onRelease(context -> () -> beans.remove(context));
        }

        void start() {
            durable.start();
        }

        ClusterNode owner() {
            return ClusterNode.this;
        }

        String id() {
            return id;
        }

        <T> void serve(String session, Function<SessionCall, T> callback, CompletableFuture<T> answer) {
            inFlight.add(answer);
            answer.whenComplete((result, failure) -> inFlight.remove(answer));
            gate.execute(() -> {
                RendererSyncContext context;
                try {
                    String handle = sessions.bindHandle(cluster.sessionAttribute(session), session,
                            value -> cluster.sessionAttribute(session, value));
                    context = sessions.find(handle).orElseThrow();
                } catch (RuntimeException refused) { // the registry is closing: a stopped server
                    answer.completeExceptionally(refused);
                    return;
                }
                context.invokeAsync(() -> callback.apply(new SessionCall(this, context, session)))
                        .whenComplete((result, failure) -> {
                            if (failure == null) {
                                answer.complete(result);
                            } else {
                                answer.completeExceptionally(failure);
                            }
                        });
            });
        }

        /** As the scope resolves a durable bean: created once per context (told to the layer), touched per call. */
        Object bean(RendererSyncContext context, Class<?> type) {
            String beanName = cluster.beanName(type);
            Map<Class<?>, Object> ofContext = beans.computeIfAbsent(context, c -> new HashMap<>());
            Object bean = ofContext.get(type);
            if (bean == null) {
                bean = durable.created(context, beanName, cluster.newInstance(type));
                ofContext.put(type, bean);
            }
            durable.touched(context, beanName);
            return bean;
        }

        void kill() {
            gate.kill();
            store.kill();
            beans.clear();
            NodeDownException reset = new NodeDownException("Node '" + name + "' (" + id + ") was killed while"
                    + " the request was in flight");
            for (CompletableFuture<?> answer : List.copyOf(inFlight)) {
                answer.completeExceptionally(reset);
            }
        }

        void stop() {
            gate.resume(); // a stalled node that is stopped gracefully first finishes what it holds
            try {
                // As the starter stops: the drain writes and releases each session after its queued callbacks.
                new ShutdownDrain(registry, new LiveChannelGroup(), cluster.settings().shutdownTimeout(), 0)
                        .run(() -> { });
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
            durable.close();
            sessions.close();
            registry.close();
        }
    }
}
