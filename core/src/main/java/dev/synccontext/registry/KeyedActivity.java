package dev.synccontext.registry;

import dev.synccontext.BlockedCallback;
import dev.synccontext.CallbackOutcome;
import dev.synccontext.CallbackPath;
import dev.synccontext.RendererSyncContext;
import dev.synccontext.SyncContextObserver;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The observer of the keyed scope's contexts: the scope's statistics, plus the use of each keyed context
 * that has an idle timeout ({@link IdleExpiry#used()} once per finished callback). A keyed context with no
 * timeout costs one lookup in an empty or small map per callback; contexts of other scopes never come here.
 */
final class KeyedActivity implements SyncContextObserver {

    private final SyncContextObserver statistics;
    private final Map<RendererSyncContext, IdleExpiry> expiring = new ConcurrentHashMap<>();

    KeyedActivity(SyncContextObserver statistics) {
        this.statistics = statistics;
    }

    void watch(RendererSyncContext context, IdleExpiry expiry) {
        expiring.put(context, expiry);
    }

    /** Stops watching {@code context} and cancels its timer; the expiry, or null if it had none. */
    @Nullable IdleExpiry forget(RendererSyncContext context) {
        IdleExpiry expiry = expiring.remove(context);
        if (expiry != null) {
            expiry.cancel();
        }
        return expiry;
    }

    @Nullable IdleExpiry expiryOf(RendererSyncContext context) {
        return expiring.get(context);
    }

    int watched() {
        return expiring.size();
    }

    @Override
    public void callbackFinished(RendererSyncContext context, CallbackPath path, CallbackOutcome outcome) {
        IdleExpiry expiry = expiring.get(context);
        if (expiry != null) {
            expiry.used();
        }
        statistics.callbackFinished(context, path, outcome);
    }

    @Override
    public void callbackSampled(RendererSyncContext context, CallbackPath path, long waitNanos, long runNanos,
            long allocatedBytes) {
        statistics.callbackSampled(context, path, waitNanos, runNanos, allocatedBytes);
    }

    @Override
    public int samplingInterval() {
        return statistics.samplingInterval();
    }

    @Override
    public void unhandledException(RendererSyncContext context, Throwable failure) {
        statistics.unhandledException(context, failure);
    }

    @Override
    public void callbackBlocked(BlockedCallback blocked) {
        statistics.callbackBlocked(blocked);
    }
}
