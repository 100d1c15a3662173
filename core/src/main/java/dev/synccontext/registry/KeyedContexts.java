package dev.synccontext.registry;

import dev.synccontext.ContextClock;
import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The registry's contexts by key ({@link SyncContextRegistry#forKey}): one open context per key, created on
 * demand in the {@value SyncContextRegistry#KEYED_SCOPE} scope's lane, with an optional idle timeout
 * ({@link IdleExpiry}).
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>One context per key.</b> Creating, reusing and expiring a key's context happen under that key's
 *       lock (the map's {@code compute}), so a look-up either counts as a use of the context an expiry is
 *       deciding on, or finds none and creates a new one; never two open contexts for one key.</li>
 *   <li><b>A closed context is replaced.</b> A key whose context was closed directly gets a new one at its
 *       next look-up; the old one is untracked.</li>
 * </ul>
 */
final class KeyedContexts {

    private static final System.Logger LOG = System.getLogger(SyncContextRegistry.class.getName());

    private final Map<String, RendererSyncContext> byKey = new ConcurrentHashMap<>();
    /** The keyed scope's lane, made on first use. */
    private final Supplier<Lane> lane;
    private final ContextClock clock;
    /** The registry's graceful release, for an expired context. */
    private final Consumer<RendererSyncContext> release;

    KeyedContexts(Supplier<Lane> lane, ContextClock clock, Consumer<RendererSyncContext> release) {
        this.lane = lane;
        this.clock = clock;
        this.release = release;
    }

    /** {@code key}'s open context, created (with its idle timeout, if any) when there is none. */
    RendererSyncContext getOrCreate(String key, @Nullable Duration idleTimeout) {
        Lane keyedLane = lane.get();
        KeyedActivity activity = activity(keyedLane);
        IdleExpiry[] created = new IdleExpiry[1];
        RendererSyncContext context = byKey.compute(key, (k, existing) -> {
            if (existing != null && !existing.isClosed()) {
                IdleExpiry expiry = activity.expiryOf(existing);
                if (expiry != null) {
                    expiry.used(); // under the key's lock, so an expiry deciding now sees it
                }
                return existing;
            }
            if (existing != null) {
                activity.forget(existing);
                keyedLane.untrack(existing);
            }
            RendererSyncContext fresh = keyedLane.create(k);
            if (idleTimeout != null) {
                created[0] = new IdleExpiry(this, clock, k, fresh, idleTimeout);
                activity.watch(fresh, created[0]);
            }
            return fresh;
        });
        if (created[0] != null) {
            created[0].arm();
        }
        return context;
    }

    /** {@code key}'s open context, if any; never creates one and does not count as a use. */
    Optional<RendererSyncContext> find(String key) {
        RendererSyncContext context = byKey.get(key);
        return context == null || context.isClosed() ? Optional.empty() : Optional.of(context);
    }

    /**
     * For {@link IdleExpiry}, inside {@code context}: forgets and releases it if it is still {@code key}'s
     * context and was not used since {@code seenUses}; under the key's lock, so a concurrent look-up either
     * counts as a use first or finds no context and creates a new one.
     */
    boolean expireIfUnused(String key, RendererSyncContext context, IdleExpiry expiry, long seenUses) {
        boolean[] expired = new boolean[1];
        byKey.computeIfPresent(key, (k, existing) -> {
            if (existing != context || expiry.uses() != seenUses) {
                return existing;
            }
            expired[0] = true;
            return null;
        });
        if (expired[0]) {
            LOG.log(System.Logger.Level.DEBUG, () -> "Keyed context '" + key + "' was idle for "
                    + expiry.timeout() + "; released");
            release.accept(context);
        }
        return expired[0];
    }

    /** For {@link IdleExpiry}: {@code key}'s context was closed directly; stop tracking it. */
    void forgetClosed(String key, RendererSyncContext context) {
        if (byKey.remove(key, context)) {
            Lane keyedLane = lane.get();
            activity(keyedLane).forget(context);
            keyedLane.untrack(context);
        }
    }

    /** Forgets {@code key}'s context; returns it, or null if there was none. */
    @Nullable RendererSyncContext remove(String key) {
        return byKey.remove(key);
    }

    /** Forgets {@code context} if it is still its key's (a release of it from elsewhere). */
    void forget(RendererSyncContext context) {
        byKey.remove(context.name(), context);
    }

    /** The contexts by key, as they are (for a broadcast to some keys). */
    Map<String, RendererSyncContext> byKey() {
        return byKey;
    }

    /** Forgets every key (the registry's shutdown closes the contexts). */
    void clear() {
        byKey.clear();
    }

    private static KeyedActivity activity(Lane keyedLane) {
        return (KeyedActivity) keyedLane.observer;
    }
}
