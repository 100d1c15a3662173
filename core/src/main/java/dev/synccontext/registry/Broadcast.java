package dev.synccontext.registry;

/**
 * What one {@link SyncContextRegistry#broadcast(Runnable) broadcast} did: how many contexts accepted the
 * callback (it is queued there and runs as any posted callback), and how many refused it (closed
 * meanwhile, or full; each refusal is counted in {@link SyncContextRegistry#refusedCallbacks()} and logged).
 *
 * @param delivered contexts that queued the callback
 * @param refused contexts that refused it
 */
public record Broadcast(int delivered, int refused) {

    /** Contexts the broadcast tried: {@code delivered + refused}. */
    public int attempted() {
        return delivered + refused;
    }
}
