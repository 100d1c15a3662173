package dev.synccontext.cluster;

import dev.synccontext.spring.durable.ForwardingStateStore;
import dev.synccontext.spring.durable.NodeLease;
import dev.synccontext.spring.durable.Ownership;
import dev.synccontext.spring.durable.WriteOutcome;
import dev.synccontext.spring.durable.redis.RedisStateStore;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The state store of {@link DurableClusterApp}: the library's store, passed through in mode {@link Mode#REAL}, or
 * broken on purpose for a premise: only {@code acquire} and {@code write} differ, the rest is forwarded. Lives in
 * this module's test sources only; the library has no such switch.
 */
final class PremiseStore extends ForwardingStateStore implements AutoCloseable {

    /** What the store does. */
    enum Mode {
        /** Everything as the library's store does it. */
        REAL,
        /**
         * No lease: {@code acquire} always grants, answering the owner's own token when another node owns the
         * session, so two nodes run one session's callbacks at once (and the store accepts both nodes' writes).
         */
        ALWAYS_GRANT,
        /**
         * No fence: a write the store refuses is written anyway, straight into the session's hash, and answered
         * accepted, so a stalled owner's late snapshot overwrites the new owner's.
         */
        UNFENCED
    }

    private final RedisStateStore redisStore;
    private final StringRedisTemplate redis;
    private final String prefix;
    private final AtomicLong forced = new AtomicLong();
    private volatile Mode mode = Mode.REAL;

    PremiseStore(RedisStateStore delegate, StringRedisTemplate redis, String prefix) {
        super(delegate);
        this.redisStore = delegate;
        this.redis = redis;
        this.prefix = prefix;
    }

    Mode mode() {
        return mode;
    }

    void mode(Mode mode) {
        this.mode = mode;
    }

    /** Writes the fence refused and {@link Mode#UNFENCED} stored anyway. */
    long forcedWrites() {
        return forced.get();
    }

    @Override
    public void close() {
        redisStore.close();
    }

    @Override
    public Ownership acquire(String handle, NodeLease lease, Duration idleTimeout) {
        Ownership ownership = super.acquire(handle, lease, idleTimeout);
        if (mode == Mode.ALWAYS_GRANT && ownership instanceof Ownership.OwnedElsewhere elsewhere) {
            return new Ownership.Acquired(elsewhere.ownerToken(), elsewhere.ownerToken());
        }
        return ownership;
    }

    @Override
    public WriteOutcome write(String handle, long token, byte[] snapshot, Duration idleTimeout) {
        WriteOutcome outcome = super.write(handle, token, snapshot, idleTimeout);
        if (mode == Mode.UNFENCED && outcome != WriteOutcome.ACCEPTED) {
            // The key layout of spring/DURABLE-STATE.md ("Redis key layout"): the session's hash.
            redis.opsForHash().putAll(prefix + "session:" + handle, Map.of("data",
                    new String(snapshot, StandardCharsets.UTF_8), "dataToken", Long.toString(token)));
            forced.incrementAndGet();
            return WriteOutcome.ACCEPTED;
        }
        return outcome;
    }
}
