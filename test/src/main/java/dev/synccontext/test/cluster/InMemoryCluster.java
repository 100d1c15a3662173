package dev.synccontext.test.cluster;

import dev.synccontext.spring.durable.DurableType;
import dev.synccontext.spring.durable.InMemoryStateStore;
import dev.synccontext.spring.durable.StateStore;
import dev.synccontext.spring.durable.session.DurableBeans;
import dev.synccontext.spring.durable.session.DurableSettings;
import dev.synccontext.test.SyncContextTestKit;
import java.lang.reflect.Constructor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * Several nodes of one application on one {@link SyncContextTestKit}: each node its own registry, session contexts
 * and durable layer (as the starter builds them), all on the kit's executor and virtual clock and one shared
 * {@link InMemoryStateStore} on that clock, behind a load balancer ({@link Routing}). An application tests its own
 * hand-offs with it: kill, deploy and stall nodes ({@link ClusterNode}) between requests, deterministically, and
 * under an exploring kit ({@code Explorer}) in every interleaving the seeds reach.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>Deterministic.</b> Nothing runs on a thread of its own or reads a real clock: requests, callbacks, store
 *       writes, lease renewals and hand-off messages are tasks of the kit's executor and timers of its clock. The
 *       same kit seed and the same script give the same run.</li>
 *   <li><b>The production code.</b> The nodes run the library's {@code DurableContexts} and {@code SessionContexts}
 *       unchanged; only the scope's proxy is replaced by {@link SessionCall#bean}, which tells the durable layer
 *       what the proxy tells it (creation and each call).</li>
 *   <li><b>One session store.</b> The sessions' handle attributes live in the cluster, as Spring Session keeps
 *       them, so a session moves between nodes as it does behind a real load balancer.</li>
 * </ul>
 * Not modelled: the HTTP layer (a refused request is a failed future, not a 503 response), idle eviction of
 * session contexts, and network partitions between a node and the store (a node either reaches it or is stalled).
 */
public final class InMemoryCluster implements AutoCloseable {

    private final SyncContextTestKit kit;
    private final StateStore store;
    private final JsonMapper mapper;
    private final Settings settings;
    private final Map<String, DurableType<?>> types;
    private final Map<Class<?>, String> beanNames;
    private final Map<String, ClusterNode> nodes = new LinkedHashMap<>();
    private final Routing routing;
    private final Map<String, String> sessionAttributes = new ConcurrentHashMap<>();

    private InMemoryCluster(Builder builder) {
        this.kit = builder.kit;
        this.mapper = builder.mapper != null ? builder.mapper : DefaultMapper.INSTANCE;
        this.store = builder.storeDecorator.apply(new InMemoryStateStore(kit.clock()));
        this.settings = new Settings(new DurableSettings(builder.nodeLeaseTtl, builder.handOffTimeout,
                builder.debounce, builder.idleTimeout), builder.maxBytes, builder.shutdownTimeout);
        this.routing = builder.routing;
        Map<String, DurableType<?>> byBean = new LinkedHashMap<>();
        Map<Class<?>, String> names = new LinkedHashMap<>();
        builder.durable.forEach((beanName, type) -> {
            byBean.put(beanName, DurableBeans.typeOf(beanName, type, mapper));
            names.put(type, beanName);
        });
        this.types = Map.copyOf(byBean);
        this.beanNames = Map.copyOf(names);
        for (String name : builder.nodeNames) {
            nodes.put(name, new ClusterNode(this, name));
        }
        nodes.values().forEach(ClusterNode::start);
    }

    /** A cluster on {@code kit}; give it nodes and durable bean classes. */
    public static Builder builder(SyncContextTestKit kit) {
        return new Builder(kit);
    }

    /** The node named {@code name}. */
    public ClusterNode node(String name) {
        ClusterNode node = nodes.get(name);
        if (node == null) {
            throw new IllegalArgumentException("No node '" + name + "' in this cluster; its nodes are " + nodes.keySet());
        }
        return node;
    }

    /** Every node, in the order they were named. */
    public List<ClusterNode> nodes() {
        return List.copyOf(nodes.values());
    }

    /** The store every node shares (the decorated one, if the builder decorated it). */
    public StateStore store() {
        return store;
    }

    /**
     * A request of {@code session} through the load balancer: served by the node {@link Routing} picks among the
     * nodes that are not down.
     *
     * @return as {@link ClusterNode#call}; fails with {@link NodeDownException} when every node is down
     */
    public <T> CompletableFuture<T> call(String session, Function<SessionCall, T> callback) {
        List<ClusterNode> running = new ArrayList<>();
        for (ClusterNode node : nodes.values()) {
            if (node.state() != ClusterNode.State.DOWN) {
                running.add(node);
            }
        }
        if (running.isEmpty()) {
            return CompletableFuture.failedFuture(new NodeDownException("Every node of the cluster is down"));
        }
        return routing.pick(session, running).call(session, callback);
    }

    /**
     * The handle the store keeps {@code session}'s state under (the key of its context handle, as the starter
     * stores it in the session), or empty if no node served the session yet. For a test that reads or plants a
     * stored snapshot.
     */
    public Optional<String> storeHandle(String session) {
        String value = sessionAttributes.get(session);
        return value == null ? Optional.empty() : Optional.of(value.substring(0, value.indexOf('@')));
    }

    /** Stops every running node gracefully (a stalled one is resumed first). */
    @Override
    public void close() {
        for (ClusterNode node : nodes.values()) {
            if (node.state() != ClusterNode.State.DOWN) {
                node.stop();
            }
        }
    }

    // For the nodes.

    SyncContextTestKit kit() {
        return kit;
    }

    JsonMapper mapper() {
        return mapper;
    }

    Settings settings() {
        return settings;
    }

    Map<String, DurableType<?>> types() {
        return types;
    }

    String beanName(Class<?> type) {
        String name = beanNames.get(type);
        if (name == null) {
            throw new IllegalArgumentException(type.getName() + " is not a durable bean of this cluster; register it"
                    + " with InMemoryCluster.builder(kit).durable(" + type.getSimpleName() + ".class)");
        }
        return name;
    }

    Object newInstance(Class<?> type) {
        try {
            Constructor<?> constructor = type.getDeclaredConstructor();
            constructor.setAccessible(true);
            return constructor.newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Cannot create " + type.getName() + ": " + e, e);
        }
    }

    @Nullable String sessionAttribute(String session) {
        return sessionAttributes.get(session);
    }

    void sessionAttribute(String session, String value) {
        sessionAttributes.put(session, value);
    }

    /** One default mapper for every cluster: building one costs more than a whole scenario run on the kit. */
    private static final class DefaultMapper {
        static final JsonMapper INSTANCE = JsonMapper.builder().build();
    }

    /** The durable layer's settings, the codec's budget and the registries' shutdown timeout. */
    record Settings(DurableSettings durable, int maxBytes, Duration shutdownTimeout) {
    }

    /** Configures an {@link InMemoryCluster}; defaults are the starter's unless stated. */
    public static final class Builder {

        private final SyncContextTestKit kit;
        private final List<String> nodeNames = new ArrayList<>();
        private final Map<String, Class<?>> durable = new LinkedHashMap<>();
        private @Nullable JsonMapper mapper;
        private UnaryOperator<StateStore> storeDecorator = UnaryOperator.identity();
        private Routing routing = Routing.affinity();
        private Duration nodeLeaseTtl = Duration.ofSeconds(15);
        private Duration handOffTimeout = Duration.ofSeconds(5);
        private Duration debounce = Duration.ofMillis(200);
        private Duration idleTimeout = Duration.ofMinutes(30);
        private Duration shutdownTimeout = Duration.ofSeconds(10);
        private int maxBytes = 64 * 1024;

        private Builder(SyncContextTestKit kit) {
            this.kit = Objects.requireNonNull(kit, "kit");
        }

        /** Nodes with these names ({@code a}, {@code b}, ...), started when the cluster is built. */
        public Builder nodes(String... names) {
            for (String name : names) {
                if (name.isBlank() || name.indexOf('@') >= 0 || nodeNames.contains(name)) {
                    throw new IllegalArgumentException("Node names are unique, non-blank and have no '@': '" + name
                            + "'");
                }
                nodeNames.add(name);
            }
            return this;
        }

        /** A {@code @Durable} bean class, under the bean name its type name gives ({@code Cart} → {@code cart}). */
        public Builder durable(Class<?> type) {
            return durable(Character.toLowerCase(type.getSimpleName().charAt(0)) + type.getSimpleName().substring(1),
                    type);
        }

        /** A {@code @Durable} bean class under {@code beanName}; checked as the starter checks it at startup. */
        public Builder durable(String beanName, Class<?> type) {
            durable.put(Objects.requireNonNull(beanName, "beanName"), Objects.requireNonNull(type, "type"));
            return this;
        }

        /** The application's mapper (a default {@code JsonMapper} unless set). */
        public Builder mapper(JsonMapper mapper) {
            this.mapper = Objects.requireNonNull(mapper, "mapper");
            return this;
        }

        /** The load balancer; {@link Routing#affinity()} unless set. */
        public Builder routing(Routing routing) {
            this.routing = Objects.requireNonNull(routing, "routing");
            return this;
        }

        /** Wraps the shared in-memory store (to count calls, or to break a guarantee on purpose in a premise). */
        public Builder store(UnaryOperator<StateStore> decorator) {
            this.storeDecorator = Objects.requireNonNull(decorator, "decorator");
            return this;
        }

        /** {@code synccontext.durable.node-lease-ttl}. */
        public Builder nodeLeaseTtl(Duration ttl) {
            this.nodeLeaseTtl = Objects.requireNonNull(ttl, "ttl");
            return this;
        }

        /** {@code synccontext.durable.hand-off-timeout}. */
        public Builder handOffTimeout(Duration timeout) {
            this.handOffTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /** {@code synccontext.durable.debounce}. */
        public Builder debounce(Duration debounce) {
            this.debounce = Objects.requireNonNull(debounce, "debounce");
            return this;
        }

        /** {@code synccontext.durable.size-budget}, in bytes. */
        public Builder sizeBudget(int bytes) {
            this.maxBytes = bytes;
            return this;
        }

        /** Builds the cluster and starts its nodes. */
        public InMemoryCluster build() {
            if (nodeNames.isEmpty()) {
                throw new IllegalStateException("A cluster needs at least one node: nodes(\"a\", \"b\")");
            }
            if (durable.isEmpty()) {
                throw new IllegalStateException("A cluster needs at least one @Durable bean class: durable(Cart.class)");
            }
            return new InMemoryCluster(this);
        }
    }
}
