package dev.synccontext.durable;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.SyncContextDefaults;
import dev.synccontext.registry.ContextTemplate;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.spring.durable.DurableType;
import dev.synccontext.spring.durable.SnapshotCodec;
import dev.synccontext.spring.durable.StateStore;
import dev.synccontext.spring.durable.StoredSnapshot;
import dev.synccontext.spring.durable.session.DurableContexts;
import dev.synccontext.spring.durable.session.DurableSettings;
import dev.synccontext.test.SyncContextTestKit;
import dev.synccontext.test.cluster.Counter;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.json.JsonMapper;

/**
 * One node of a durable test on the kit's virtual time: a registry and a {@link DurableContexts} on a store,
 * its sessions' contexts and counters. What the scope does for a real bean (tell the layer of its creation and
 * of each call through its proxy) the node does by hand.
 */
final class DurableNode {

    /** The one durable type the nodes keep: a session's {@link Counter}. */
    static final DurableType<Counter> COUNTER = DurableType.of("counter", Counter.class, 1);

    final SyncContextRegistry registry;
    final DurableContexts durable;
    final Holdable writer = new Holdable();
    final Map<String, RendererSyncContext> contexts = new HashMap<>();
    final Map<RendererSyncContext, Counter> counters = new HashMap<>();
    private final SyncContextTestKit kit;

    /** A started node {@code id} whose contexts run on {@code kit} and whose snapshots go to {@code store}. */
    DurableNode(SyncContextTestKit kit, JsonMapper mapper, String id, StateStore store, DurableSettings settings) {
        this.kit = kit;
        ContextTemplate template = new ContextTemplate(kit.executor(), "deterministic", SyncContextDefaults.MAX_BATCH,
                SyncContextDefaults.MAX_QUEUE_DEPTH, Duration.ZERO, Duration.ofSeconds(10), null);
        registry = new SyncContextRegistry(template, null, List.of(), kit.clock());
        durable = new DurableContexts(registry, store, codec(mapper), mapper, Map.of("counter", COUNTER), settings, id,
                writer);
        durable.start();
    }

    /** The codec that reads and writes the nodes' snapshots. */
    static SnapshotCodec codec(JsonMapper mapper) {
        return SnapshotCodec.builder(mapper).register(COUNTER).build();
    }

    /** The count in the session's snapshot in {@code store}; fails if nothing is stored. */
    static int storedCount(StateStore store, JsonMapper mapper, String session) {
        StoredSnapshot snapshot = store.read(session).orElseThrow(() -> new AssertionError("nothing stored"));
        return ((Counter) codec(mapper).decode(snapshot.bytes()).get("counter")).getCount();
    }

    /** The session's open context, or a new one opened with the durable layer. */
    RendererSyncContext contextOf(String session) {
        return contexts.compute(session, (key, existing) -> {
            if (existing != null && !existing.isClosed()) {
                return existing;
            }
            RendererSyncContext context = registry.create("session");
            durable.opened(key, context);
            return context;
        });
    }

    /** What a call through the bean's proxy does: resolve (creating and restoring once), tell, then call. */
    Counter counter(RendererSyncContext context) {
        Counter counter = counters.computeIfAbsent(context,
                c -> (Counter) durable.created(c, "counter", new Counter()));
        durable.touched(context, "counter");
        return counter;
    }

    /** Increments the session's counter on its context; the future holds the new count. */
    CompletableFuture<Integer> increment(String session) {
        RendererSyncContext context = contextOf(session);
        return context.invokeAsync(() -> counter(context).increment());
    }

    /** {@link #increment}, with the kit run until idle. */
    int incrementNow(String session) {
        CompletableFuture<Integer> done = increment(session);
        kit.runUntilIdle();
        return done.join();
    }

    /**
     * Releases {@code context} on a real thread of its own ({@code context}), as a hand-off or a deploy does, and
     * returns that thread once it is blocked (its last step waits for the write in flight) or has ended; fails,
     * saying {@code waitsForTheWrite}, if neither happens within 10 s.
     */
    Thread releaseBehindTheWriteInFlight(RendererSyncContext context, String waitsForTheWrite) {
        Thread releasing = new Thread(() -> registry.release(context), "context");
        releasing.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (releasing.getState() != Thread.State.BLOCKED && releasing.isAlive()) {
            assertThat(System.nanoTime()).as(waitsForTheWrite).isLessThan(deadline);
            Thread.onSpinWait();
        }
        return releasing;
    }
}
