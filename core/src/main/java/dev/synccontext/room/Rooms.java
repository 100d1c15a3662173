package dev.synccontext.room;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.live.LiveChannel;
import dev.synccontext.registry.SyncContextRegistry;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The rooms of one kind in a registry ({@code auction:1}, {@code auction:2}, ...): each a keyed context of the
 * registry with its state and members ({@link Room}).
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>Created only where the code asks.</b> {@link #open} makes the room if there is none (and counts as a
 *       use of it); {@link #find} never makes one, so a mistyped id finds nothing instead of opening an empty
 *       room.</li>
 *   <li><b>Idle expiry.</b> With {@link Builder#idleTimeout}, a room whose context ran no callback for about
 *       that long is released as the registry's keyed contexts are ({@link SyncContextRegistry#forKey(String,
 *       Duration)}); its memberships end and {@link #find} no longer finds it.</li>
 *   <li><b>Membership ends with the member's context.</b> One release hook on the registry: when it releases a
 *       context (a session ended, a socket closed, shutdown), that context leaves every room of these rooms.</li>
 *   <li><b>{@link #close()} leaves nothing behind</b> in the registry: the rooms' contexts are removed (released
 *       as by {@link SyncContextRegistry#remove}), every membership ends, and the release hook is unregistered,
 *       so rooms made for a while (a test, a module reloaded) do not stay reachable from the registry.</li>
 * </ul>
 * Thread-safe. The registry's keys of these rooms are {@code name + ":" + id}; a context-scoped bean declared for
 * them ({@code @ContextScoped(key = "auction:*")}) lives on the room's context.
 *
 * @param <S> a room's state
 * @param <E> its events
 */
public final class Rooms<S, E> implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(Rooms.class.getName());

    private final SyncContextRegistry registry;
    private final String name;
    private final Function<String, ? extends S> state;
    private final Delivery delivery;
    private final @Nullable Duration idleTimeout;
    private final @Nullable Function<? super E, ?> coalesceKey;
    private final Function<RendererSyncContext, @Nullable Runnable> releaseHook = this::released;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final ConcurrentHashMap<String, Room<S, E>> rooms = new ConcurrentHashMap<>();
    /** The memberships of each member's context, so that its release ends them without visiting every room. */
    private final ConcurrentHashMap<RendererSyncContext, Set<Member<E>>> byOwner = new ConcurrentHashMap<>();
    private final LongAdder refused = new LongAdder();

    private Rooms(Builder<S, E> builder) {
        this.registry = builder.registry;
        this.name = builder.name;
        this.state = builder.state;
        this.delivery = builder.delivery;
        this.idleTimeout = builder.idleTimeout;
        this.coalesceKey = builder.coalesceKey;
        registry.onRelease(releaseHook);
    }

    /**
     * A builder for rooms named {@code name} ({@code auction}) in {@code registry}, each with the state
     * {@code state} makes from its id (on the caller of {@link #open} that creates the room).
     */
    public static <S, E> Builder<S, E> builder(SyncContextRegistry registry, String name,
            Function<String, ? extends S> state) {
        return new Builder<>(registry, name, state);
    }

    /**
     * The room {@code id}, made if there is none open (its context is {@code registry.forKey(name + ":" + id,
     * idleTimeout)}). Counts as a use of the room for its idle timeout.
     *
     * @throws IllegalStateException after {@link #close()}
     */
    public Room<S, E> open(String id) {
        Objects.requireNonNull(id, "id");
        if (closed.get()) {
            throw new IllegalStateException("The rooms '" + name + "' are closed: open made no room '" + key(id) + "'");
        }
        return rooms.compute(id, (k, existing) -> {
            RendererSyncContext context = registry.forKey(key(k), idleTimeout);
            if (existing != null && existing.context() == context) {
                return existing;
            }
            if (existing != null) {
                existing.endAll(); // its context was closed without the registry: the key has a new one
            }
            return new Room<>(this, k, context, Objects.requireNonNull(state.apply(k), "the state factory returned null"));
        });
    }

    /** The open room {@code id}, if {@link #open} made it; never makes one, and does not count as a use. */
    public Optional<Room<S, E>> find(String id) {
        Room<S, E> room = rooms.get(Objects.requireNonNull(id, "id"));
        return room == null || room.isClosed() ? Optional.empty() : Optional.of(room);
    }

    /** The open rooms. A snapshot. */
    public List<Room<S, E>> rooms() {
        return rooms.values().stream().filter(room -> !room.isClosed()).toList();
    }

    /** The memberships {@code member} holds now (its own context's and its channels'), in no order. */
    public Collection<Membership> memberships(RendererSyncContext member) {
        Set<Member<E>> held = byOwner.get(member);
        return held == null ? List.of() : List.copyOf(held);
    }

    /**
     * Events a member refused since these rooms were made (its context closed or full, its channel closed): each
     * ended that membership and was logged with the member's name.
     */
    public long refusedDeliveries() {
        return refused.sum();
    }

    /** The registry key of room {@code id}. */
    public String key(String id) {
        return name + ":" + id;
    }

    /**
     * Ends these rooms: removes every room's context from the registry (its queued callbacks still run, then
     * it closes), ends every membership, and unregisters the release hook. {@link #open} refuses afterwards,
     * {@link #find} finds nothing. Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        for (Room<S, E> room : List.copyOf(rooms.values())) {
            rooms.remove(room.id(), room);
            if (registry.find(room.key()).orElse(null) == room.context()) {
                registry.remove(room.key());
            }
            room.endAll();
        }
        byOwner.values().forEach(held -> List.copyOf(held).forEach(Member::leave));
        registry.removeReleaseHook(releaseHook);
    }

    Delivery delivery() {
        return delivery;
    }

    /**
     * What a {@link Delivery#CONVERGING} member coalesces {@code event} with: events of the same key replace
     * each other ({@link Builder#coalesceBy}); without one, every event of the room has the same key.
     */
    @Nullable Object coalesceKey(E event) {
        return coalesceKey == null ? null : coalesceKey.apply(event);
    }

    boolean offer(RendererSyncContext member, Runnable callback) {
        if (registry.offer(member, callback, "An event of " + name + " room")) {
            return true;
        }
        refused.increment(); // the registry counted and logged it too, with the member's name
        return false;
    }

    void refusedByChannel(Room<S, E> room, LiveChannel channel, RuntimeException why) {
        refused.increment();
        LOG.log(System.Logger.Level.DEBUG, () -> "An event of room '" + room.key() + "' was refused by live channel '"
                + channel.name() + "'; it left the room: " + why.getMessage());
    }

    void joined(Member<E> member) {
        byOwner.computeIfAbsent(member.owner, c -> ConcurrentHashMap.newKeySet()).add(member);
        if (member.owner.isClosed()) {
            member.leave(); // released between the room's check and this add: its release hook may have run
        }
    }

    void left(Member<E> member) {
        byOwner.computeIfPresent(member.owner, (c, held) -> {
            held.remove(member);
            return held.isEmpty() ? null : held;
        });
    }

    /** The registry's release hook: a released member leaves its rooms; a released room ends. */
    private @Nullable Runnable released(RendererSyncContext context) {
        Set<Member<E>> held = byOwner.remove(context);
        if (held != null) {
            held.forEach(Member::leave);
        }
        String contextName = context.name();
        if (contextName.startsWith(name + ":")) {
            String id = contextName.substring(name.length() + 1);
            Room<S, E> room = rooms.get(id);
            if (room != null && room.context() == context) {
                rooms.remove(id, room);
                room.endAll();
            }
        }
        return null;
    }

    /** Settings of {@link Rooms}. */
    public static final class Builder<S, E> {
        private final SyncContextRegistry registry;
        private final String name;
        private final Function<String, ? extends S> state;
        private Delivery delivery = Delivery.LOG;
        private @Nullable Duration idleTimeout;
        private @Nullable Function<? super E, ?> coalesceKey;

        private Builder(SyncContextRegistry registry, String name, Function<String, ? extends S> state) {
            this.registry = Objects.requireNonNull(registry, "registry");
            this.name = Objects.requireNonNull(name, "name");
            this.state = Objects.requireNonNull(state, "state");
            if (name.isEmpty() || name.contains(":")) {
                throw new IllegalArgumentException("A rooms' name is the first part of their keys ('" + name
                        + ":<id>'); it must be non-empty and hold no ':', was '" + name + "'");
            }
        }

        /** How members get events: {@link Delivery#LOG} (the default) or {@link Delivery#CONVERGING}. */
        public Builder<S, E> delivery(Delivery delivery) {
            this.delivery = Objects.requireNonNull(delivery, "delivery");
            return this;
        }

        /** Releases a room after about this long without a callback (none by default: until removed). */
        public Builder<S, E> idleTimeout(Duration idleTimeout) {
            if (idleTimeout.isNegative() || idleTimeout.isZero()) {
                throw new IllegalArgumentException("idleTimeout must be positive, was " + idleTimeout);
            }
            this.idleTimeout = idleTimeout;
            return this;
        }

        /**
         * {@link Delivery#CONVERGING} per key instead of per room: events with equal keys ({@code equals}) replace
         * each other, events of other keys do not, so a member converges on the latest event of every key (the
         * price of each lot of an auction) rather than on the room's latest event only. A context member gets,
         * in its one queued callback, the latest event of each key in the order those were published; a
         * channel member gets each event with the key {@code roomKey + ":" + key}, which a
         * {@link dev.synccontext.live.OverflowPolicy#COALESCE_BY_KEY} channel coalesces. The key function runs
         * on the room's context; it must not throw or return null.
         */
        public Builder<S, E> coalesceBy(Function<? super E, ?> key) {
            this.coalesceKey = Objects.requireNonNull(key, "key");
            return this;
        }

        /**
         * The rooms; registers their release hook on the registry ({@link Rooms#close()} unregisters it).
         *
         * @throws IllegalStateException {@link #coalesceBy} with {@link Delivery#LOG} (a log coalesces nothing)
         */
        public Rooms<S, E> build() {
            if (coalesceKey != null && delivery != Delivery.CONVERGING) {
                throw new IllegalStateException("coalesceBy applies to Delivery.CONVERGING; rooms '" + name
                        + "' deliver " + delivery + " (every event): set delivery(Delivery.CONVERGING) or drop coalesceBy");
            }
            return new Rooms<>(this);
        }
    }
}
