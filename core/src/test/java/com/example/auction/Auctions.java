package com.example.auction;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.room.Delivery;
import dev.synccontext.room.Room;
import dev.synccontext.room.Rooms;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/** An application's auctions: each a room whose bids reach every bidder's session, in order. */
public final class Auctions implements AutoCloseable {

    public record Bid(String bidder, int amount) {
    }

    /** One auction's state: touched only on its room's context, so no lock. */
    static final class Auction {
        final List<Bid> history = new ArrayList<>();

        Bid bid(String bidder, int raise) {
            int highest = history.isEmpty() ? 0 : history.get(history.size() - 1).amount();
            Bid bid = new Bid(bidder, highest + raise);
            history.add(bid);
            return bid;
        }
    }

    private final Rooms<Auction, Bid> auctions;

    public Auctions(SyncContextRegistry registry) {
        auctions = Rooms.<Auction, Bid>builder(registry, "auction", id -> new Auction())
                .delivery(Delivery.LOG)               // every bid, in order, no gap (CONVERGING: the latest only)
                .idleTimeout(Duration.ofMinutes(30))
                .build();
    }

    /** In a callback of {@code session}: joins (and opens) auction {@code id}; answers its bids so far. */
    public CompletableFuture<List<Bid>> join(String id, RendererSyncContext session, Consumer<Bid> onBid) {
        Room<Auction, Bid> room = auctions.open(id);  // creates; auctions.find(id) never does
        return room.ask(auction -> {
            room.join(session, onBid);                // joined in the callback that reads: no bid falls between
            return List.copyOf(auction.history);
        });                                           // answered on session, before any later bid
    }

    /** In a callback of a session: bids; the answer comes before any bid the room sends that session later. */
    public CompletableFuture<Bid> bid(String id, String bidder, int raise) {
        Room<Auction, Bid> room = auctions.find(id)
                .orElseThrow(() -> new IllegalArgumentException("No auction '" + id + "': open it first"));
        return room.ask(auction -> {
            Bid bid = auction.bid(bidder, raise);     // on the room's context: no lock
            room.publish(bid);                        // to every member; never throws for one that ended
            return bid;
        });
    }

    /** Removes every auction's context and unregisters from the registry. */
    @Override
    public void close() {
        auctions.close();
    }
}
