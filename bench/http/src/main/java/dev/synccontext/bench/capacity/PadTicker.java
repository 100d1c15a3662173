package dev.synccontext.bench.capacity;

import java.util.concurrent.ThreadLocalRandom;

import dev.synccontext.registry.SyncContextRegistry;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Once per {@code capacity.tick-interval} (default one second) pushes a tick into every live session's context.
 *
 * <p>{@code capacity.ticker} picks how, so that one build measures both (bench/README.md, "Capacity per node"):
 * {@code posts} (the default, the published figures) posts to each pad in one loop, as the sample's ticker does, so
 * every session's drain is queued on the executor at once; {@code broadcast} is one
 * {@link SyncContextRegistry#broadcastAsync}, a window of posts at a time (at 10,000 sessions its click p99 was
 * higher, not lower: docs/2026-12-03-capacity-tick-burst.md).
 */
@Component
final class PadTicker {

    private final LivePads livePads;
    private final SyncContextRegistry registry;
    private final boolean paced;
    private long sequence;
    private long price = 10_000;

    PadTicker(LivePads livePads, SyncContextRegistry registry, @Value("${capacity.ticker:posts}") String ticker) {
        if (!ticker.equals("broadcast") && !ticker.equals("posts")) {
            throw new IllegalArgumentException("capacity.ticker must be broadcast or posts, was " + ticker);
        }
        this.livePads = livePads;
        this.registry = registry;
        this.paced = ticker.equals("broadcast");
    }

    @Scheduled(fixedRateString = "${capacity.tick-interval:1s}")
    void tick() {
        long next = ++sequence;
        long newPrice = price += ThreadLocalRandom.current().nextInt(-20, 21);
        if (paced) {
            registry.broadcastAsync(livePads::has, () -> livePads.current().ifPresent(pad -> pad.tick(next, newPrice)));
            return;
        }
        for (Pad pad : livePads.all()) {
            if (!pad.postTick(next, newPrice)) {
                livePads.remove(pad);
            }
        }
    }
}
