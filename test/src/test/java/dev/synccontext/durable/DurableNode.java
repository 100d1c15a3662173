package dev.synccontext.durable;

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
import tools.jackson.databind.json.JsonMapper;

/**
 * One node of the durable tests on the kit's virtual time: its registry, its durable layer on a store, its sessions'
 * contexts and counters. What the scope does for a real bean (tell the layer of its creation and of each call
 * through its proxy) the node does by hand. Confined to the test's thread.
 */
final class DurableNode {

    static final DurableType<Counter> COUNTER = DurableType.of("counter", Counter.class, 1);

    final SyncContextRegistry registry;
    final DurableContexts durable;
    final Holdable writer = new Holdable();
    final Map<String, RendererSyncContext> contexts = new HashMap<>();
    final Map<RendererSyncContext, Counter> counters = new HashMap<>();
    private final SyncContextTestKit kit;

    DurableNode(SyncContextTestKit kit, JsonMapper mapper, String id, StateStore store, DurableSettings settings) {
        this.kit = kit;
        ContextTemplate template = new ContextTemplate(kit.executor(), "deterministic", SyncContextDefaults.MAX_BATCH,
                SyncContextDefaults.MAX_QUEUE_DEPTH, Duration.ZERO, Duration.ofSeconds(10), null);
        registry = new SyncContextRegistry(template, null, List.of(), kit.clock());
        SnapshotCodec codec = SnapshotCodec.builder(mapper).register(COUNTER).build();
        durable = new DurableContexts(registry, store, codec, mapper, Map.of("counter", COUNTER), settings, id, writer);
        durable.start();
    }

    /** The count {@code store} holds for {@code session}, decoded as a node restoring it would. */
    static int stored(StateStore store, JsonMapper mapper, String session) {
        StoredSnapshot snapshot = store.read(session).orElseThrow(() -> new AssertionError("nothing stored"));
        SnapshotCodec codec = SnapshotCodec.builder(mapper).register(COUNTER).build();
        return ((Counter) codec.decode(snapshot.bytes()).get("counter")).getCount();
    }

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

    CompletableFuture<Integer> increment(String session) {
        RendererSyncContext context = contextOf(session);
        return context.invokeAsync(() -> counter(context).increment());
    }

    int incrementNow(String session) {
        CompletableFuture<Integer> done = increment(session);
        kit.runUntilIdle();
        return done.join();
    }
}
