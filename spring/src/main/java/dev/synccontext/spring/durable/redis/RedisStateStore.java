package dev.synccontext.spring.durable.redis;

import dev.synccontext.spring.durable.HandOffMessage;
import dev.synccontext.spring.durable.NodeLease;
import dev.synccontext.spring.durable.Ownership;
import dev.synccontext.spring.durable.StateStore;
import dev.synccontext.spring.durable.StoredSnapshot;
import dev.synccontext.spring.durable.WriteOutcome;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.data.redis.serializer.GenericToStringSerializer;
import org.springframework.data.redis.serializer.RedisSerializer;

/**
 * A {@link StateStore} on Redis, through Spring Data Redis (the connection Spring Session already uses). Every
 * step that decides ownership or writes state is one Lua script, so Redis runs its check and its change with no
 * other command between them; see {@code spring/DURABLE-STATE.md} for the key layout and why the tokens are safe.
 *
 * <h2>Keys (prefix {@code synccontext:} unless configured)</h2>
 * <ul>
 *   <li>{@code <prefix>tokens}: the one token sequence (a counter; no expiry);</li>
 *   <li>{@code <prefix>node:<node id>}: a node lease, its epoch as value, expiring after the lease ttl;</li>
 *   <li>{@code <prefix>session:<handle>}: a session's hash ({@code owner}, {@code epoch}, {@code token},
 *       {@code data}, {@code dataToken}), expiring after the idle timeout since its last acquire or write;</li>
 *   <li>channel {@code <prefix>handoff:<node id>}: hand-off messages for a node.</li>
 * </ul>
 *
 * <h2>Limits</h2>
 * One Redis primary (standalone or Sentinel), not Redis Cluster: the scripts read the owner's lease key, which
 * they learn from the session's hash, so the keys of one step cannot be declared up front and need not share a
 * slot. Fencing holds as long as Redis keeps what it acknowledged: a failover to a replica that missed the last
 * acquire, or a restart without persistence, can grant a session twice (the tokens still never go backwards for
 * a session whose hash survived). Configure no eviction of these keys ({@code maxmemory-policy noeviction} or a
 * {@code volatile-*} policy that spares the counter, which has no expiry).
 */
public final class RedisStateStore implements StateStore, AutoCloseable {

    private static final Log log = LogFactory.getLog(RedisStateStore.class);

    /** The key prefix unless configured. */
    public static final String DEFAULT_PREFIX = "synccontext:";

    private static final RedisScript<Long> NODE_LEASE = script("node-lease.lua", Long.class);
    private static final RedisScript<Long> RENEW = script("renew.lua", Long.class);
    private static final RedisScript<Long> RELEASE_NODE_LEASE = script("release-node-lease.lua", Long.class);
    @SuppressWarnings("rawtypes")
    private static final RedisScript<List> ACQUIRE = script("acquire.lua", List.class);
    private static final RedisScript<Long> WRITE = script("write.lua", Long.class);
    private static final RedisScript<Long> RELEASE = script("release.lua", Long.class);

    /** Integer replies arrive as {@code Long} untouched; this only reads one that came back as text. */
    private static final RedisSerializer<Long> INTEGER_ANSWER = new GenericToStringSerializer<>(Long.class);

    /** The acquire script's array reply, its bulk elements (an owner's node id) read as UTF-8 text. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static final RedisSerializer<List> TEXT_ELEMENTS = (RedisSerializer) RedisSerializer.string();

    private final RedisConnectionFactory connections;
    private final RedisKeys keys;
    private final RedisTemplate<String, byte[]> redis;
    private @Nullable RedisMessageListenerContainer listeners;

    /** A store on {@code connections} with the {@link #DEFAULT_PREFIX default prefix}. */
    public RedisStateStore(RedisConnectionFactory connections) {
        this(connections, DEFAULT_PREFIX);
    }

    /**
     * A store on {@code connections} whose keys and channels all start with {@code prefix} (visible ASCII, such as
     * {@code "myapp:synccontext:"}); applications sharing one Redis keep apart by prefix.
     */
    public RedisStateStore(RedisConnectionFactory connections, String prefix) {
        this.connections = connections;
        this.keys = new RedisKeys(prefix);
        RedisTemplate<String, byte[]> template = new RedisTemplate<>();
        template.setConnectionFactory(connections);
        template.setKeySerializer(RedisSerializer.string());
        template.setValueSerializer(RedisSerializer.byteArray());
        template.setHashKeySerializer(RedisSerializer.string());
        template.setHashValueSerializer(RedisSerializer.byteArray());
        template.afterPropertiesSet();
        this.redis = template;
    }

    private static <T> RedisScript<T> script(String name, Class<T> result) {
        return RedisScript.of(new ClassPathResource(name, RedisStateStore.class), result);
    }

    @Override
    public Optional<NodeLease> acquireNodeLease(String nodeId, Duration ttl) {
        StateStore.checkNodeId(nodeId);
        StateStore.checkTtl(ttl, "node lease ttl");
        long epoch = run(NODE_LEASE, List.of(keys.node(nodeId), keys.tokens()), ttl.toMillis());
        return epoch == 0 ? Optional.empty() : Optional.of(new NodeLease(nodeId, epoch, ttl));
    }

    @Override
    public boolean renewNodeLease(NodeLease lease) {
        return run(RENEW, List.of(keys.node(lease.nodeId())), lease.epoch(), lease.ttl().toMillis()) == 1;
    }

    @Override
    public void releaseNodeLease(NodeLease lease) {
        run(RELEASE_NODE_LEASE, List.of(keys.node(lease.nodeId())), lease.epoch());
    }

    @Override
    public Ownership acquire(String handle, NodeLease lease, Duration idleTimeout) {
        StateStore.checkHandle(handle);
        StateStore.checkTtl(idleTimeout, "idle timeout");
        List<?> answer = redis.execute(ACQUIRE, ScriptArguments.INSTANCE, TEXT_ELEMENTS,
                List.of(keys.session(handle), keys.node(lease.nodeId()), keys.tokens()), lease.nodeId(),
                lease.epoch(), idleTimeout.toMillis(), keys.nodePrefix());
        return ScriptAnswers.ownership(answer, lease, handle);
    }

    @Override
    public WriteOutcome write(String handle, long token, byte[] snapshot, Duration idleTimeout) {
        StateStore.checkHandle(handle);
        StateStore.checkTtl(idleTimeout, "idle timeout");
        long answer = run(WRITE, List.of(keys.session(handle)), token, snapshot, idleTimeout.toMillis(),
                keys.nodePrefix());
        return ScriptAnswers.writeOutcome(answer, handle);
    }

    @Override
    public Optional<StoredSnapshot> read(String handle) {
        StateStore.checkHandle(handle);
        List<Object> fields = redis.opsForHash().multiGet(keys.session(handle), List.of("dataToken", "data"));
        return ScriptAnswers.snapshot(fields, handle);
    }

    @Override
    public boolean release(String handle, long token) {
        StateStore.checkHandle(handle);
        return run(RELEASE, List.of(keys.session(handle)), token) == 1;
    }

    /** One {@code DEL}: the session's ownership and snapshot are one hash, so removing it is atomic without a script. */
    @Override
    public void delete(String handle) {
        StateStore.checkHandle(handle);
        redis.delete(keys.session(handle));
    }

    @Override
    public boolean publish(String toNode, HandOffMessage message) {
        StateStore.checkNodeId(toNode);
        Long receivers = redis.convertAndSend(keys.handOffChannel(toNode), HandOffFrames.encode(message));
        return receivers != null && receivers > 0;
    }

    @Override
    public Subscription subscribe(String nodeId, Consumer<HandOffMessage> listener) {
        StateStore.checkNodeId(nodeId);
        String channel = keys.handOffChannel(nodeId);
        MessageListener receiver = (message, pattern) -> {
            HandOffMessage handOff = HandOffFrames.decode(message.getBody());
            if (handOff == null) {
                log.warn("Ignored a malformed hand-off message of " + message.getBody().length + " bytes on "
                        + channel + " (it is read as data only; check what else publishes there)");
                return;
            }
            try {
                listener.accept(handOff);
            } catch (RuntimeException e) {
                log.error("A hand-off listener failed on " + handOff
                        + "; that message is lost, the sender's deadline covers it", e);
            }
        };
        RedisMessageListenerContainer container = listeners();
        container.addMessageListener(receiver, new ChannelTopic(channel));
        return () -> container.removeMessageListener(receiver);
    }

    /** One subscriber connection for all of this store's subscriptions, opened on the first. */
    private synchronized RedisMessageListenerContainer listeners() {
        RedisMessageListenerContainer container = listeners;
        if (container == null) {
            container = new RedisMessageListenerContainer();
            container.setConnectionFactory(connections);
            container.afterPropertiesSet();
            container.start();
            listeners = container;
        }
        return container;
    }

    /** Closes the subscriber connection, if one was opened; the store's other operations keep working. */
    @Override
    public synchronized void close() {
        RedisMessageListenerContainer container = listeners;
        listeners = null;
        if (container != null) {
            try {
                container.destroy();
            } catch (Exception e) {
                log.warn("Closing the hand-off subscriber connection failed", e);
            }
        }
    }

    private long run(RedisScript<Long> script, List<String> scriptKeys, Object... arguments) {
        Long answer = redis.execute(script, ScriptArguments.INSTANCE, INTEGER_ANSWER, scriptKeys, arguments);
        if (answer == null) {
            throw new IllegalStateException("Redis answered nothing to a synccontext script on " + scriptKeys);
        }
        return answer;
    }
}
