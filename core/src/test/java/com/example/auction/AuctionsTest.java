package com.example.auction;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.auction.Auctions.Bid;
import dev.synccontext.RendererSyncContext;
import dev.synccontext.registry.ContextTemplate;
import dev.synccontext.registry.SyncContextRegistry;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * README's room example ({@link Auctions}, shown verbatim there) run as a user would: two sessions join, each
 * bids from a callback of its own context; both see every bid in order, each on its own context, and a late
 * joiner gets the history then the bids after it.
 */
class AuctionsTest {

    @Test
    void bothSessionsSeeEveryBidInOrderAndALateJoinerMissesNone() {
        try (SyncContextRegistry registry = new SyncContextRegistry(
                ContextTemplate.defaults(RendererSyncContext.defaultExecutor(), "default"));
                Auctions auctions = new Auctions(registry)) {
            RendererSyncContext alice = registry.create("session");
            RendererSyncContext bob = registry.create("session");
            List<Bid> aliceSaw = new CopyOnWriteArrayList<>();
            List<Bid> bobSaw = new CopyOnWriteArrayList<>();
            alice.invokeAsyncStage(() -> auctions.join("42", alice, bid -> {
                alice.assertAccess();
                aliceSaw.add(bid);
            })).join();
            for (int i = 0; i < 10; i++) {
                RendererSyncContext bidder = i % 2 == 0 ? alice : bob;
                bidder.invokeAsyncStage(() -> auctions.bid("42", bidder.name(), 5)).join();
            }
            List<Bid> history = bob.invokeAsyncStage(() -> auctions.join("42", bob, bobSaw::add)).join();
            bob.invokeAsyncStage(() -> auctions.bid("42", bob.name(), 5)).join();
            alice.invokeAsync(() -> { }).join(); // the bids queued on each before have run
            bob.invokeAsync(() -> { }).join();
            assertThat(history).hasSize(10);
            assertThat(aliceSaw).hasSize(11).startsWith(history.toArray(Bid[]::new));
            assertThat(aliceSaw.get(10)).isEqualTo(new Bid(bob.name(), 55));
            assertThat(bobSaw).containsExactly(aliceSaw.get(10));
        }
    }
}
