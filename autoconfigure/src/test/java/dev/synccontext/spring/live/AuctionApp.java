package dev.synccontext.spring.live;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.live.LiveChannel;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.room.BidderLedger;
import dev.synccontext.room.Room;
import dev.synccontext.room.Rooms;
import dev.synccontext.spring.handler.OnContext;
import dev.synccontext.spring.scope.ContextScoped;
import dev.synccontext.spring.websocket.StompBroker;
import jakarta.annotation.PreDestroy;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.messaging.handler.annotation.DestinationVariable;
import org.springframework.messaging.handler.annotation.MessageMapping;
import org.springframework.messaging.simp.SimpMessageHeaderAccessor;
import org.springframework.messaging.simp.annotation.SendToUser;
import org.springframework.messaging.simp.config.MessageBrokerRegistry;
import org.springframework.stereotype.Component;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.socket.config.annotation.StompEndpointRegistry;

/**
 * An auction application as a user writes it from the READMEs: a room per auction ({@link Rooms}), a
 * {@code @ContextScoped} bidder per session (its private state and its live channel, which the room's bids are
 * published into), an {@code @OnContext} MVC controller and an {@code @OnContext} STOMP controller that bid
 * through {@link Room#ask}, and the live stream over SSE (MVC) or STOMP. The room tells the previous leader it
 * was outbid by posting to that bidder's context. {@code recipe=hop-back} bids with the hop-back recipe instead
 * ({@code invokeAsync(...).thenApplyAsync(..., mySession)}): the premise of {@link AuctionRoomHttpLoadTest}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({AuctionApp.Broker.class, AuctionApp.Bidder.class, AuctionApp.Auctions.class, AuctionApp.MvcBidding.class,
        AuctionApp.StompBidding.class})
class AuctionApp {

    /** An accepted bid: its place in the room's history, who made it (the bidder's context name), how much. */
    record Bid(int seq, String user, int amount) {
        /** What a live stream carries: {@code seq,user,amount}. */
        String line() {
            return seq + "," + user + "," + amount;
        }
    }

    /** The room's state: touched only on the room's context. */
    static final class Auction {
        final List<Bid> history = new ArrayList<>();
        int highest;
        @Nullable String leader;
        @Nullable RendererSyncContext leaderContext;
    }

    /**
     * The STOMP broker: {@code /queue} for each session's destinations, and both orders kept (a session's frames
     * handled in the order received, its messages sent in the order published).
     */
    static class Broker extends StompBroker {
        @Override
        protected String[] brokerDestinations() {
            return new String[] { "/queue" };
        }

        @Override
        public void registerStompEndpoints(StompEndpointRegistry registry) {
            super.registerStompEndpoints(registry);
            registry.setPreserveReceiveOrder(true);
        }

        @Override
        public void configureMessageBroker(MessageBrokerRegistry registry) {
            super.configureMessageBroker(registry);
            registry.setPreservePublishOrder(true);
        }
    }

    /**
     * One bidder per session context (an HTTP session, or a STOMP session): what it was told, touched only on its
     * context, and its live channel.
     */
    @Component
    @ContextScoped
    static class Bidder {

        private final LiveChannel live;
        private final BidderLedger ledger = new BidderLedger();

        Bidder(LiveChannels channels) {
            this.live = channels.open("bidder", () -> "snapshot");
        }

        LiveChannel live() {
            return live;
        }

        /** The room's answer to one of its bids: {@code null} if refused (it was leading already). */
        void answered(@Nullable Bid accepted) {
            ledger.answered(accepted == null ? null : accepted.seq());
        }

        /** The room's notice that bid {@code beatenSeq} was beaten. */
        void outbid(int beatenSeq) {
            ledger.outbid(beatenSeq);
        }

        /** {@code answers;accepted seqs;leading;outbid-before-answer}. */
        String state() {
            return ledger.answers() + ";" + ledger.acceptedSeqs().stream().map(String::valueOf)
                    .collect(Collectors.joining(",")) + ";" + ledger.leading() + ";" + ledger.outbidBeforeAnswer();
        }

        @PreDestroy
        void ended() {
            live.close();
        }
    }

    /** The auctions, and what a bid does on the room's context. */
    @Component
    static class Auctions {

        final Rooms<Auction, Bid> rooms;
        private final SyncContextRegistry registry;
        private final Bidder bidder;

        Auctions(SyncContextRegistry registry, Bidder bidder) {
            this.registry = registry;
            this.bidder = bidder;
            this.rooms = Rooms.<Auction, Bid>builder(registry, "auction", id -> new Auction()).build();
        }

        /**
         * On the caller's session context: joins its live channel to the room, each bid an event named after the
         * room's key; answers the caller's name.
         */
        CompletableFuture<String> join(String auction) {
            RendererSyncContext me = RendererSyncContext.current().orElseThrow();
            LiveChannel channel = bidder.live(); // resolved on the caller's context: its own bidder's channel
            Room<Auction, Bid> room = rooms.open(auction);
            return room.ask(state -> {
                room.join(me, channel, room.key(), Bid::line); // the event names its room: one stream, many rooms
                return me.name();
            });
        }

        /**
         * On the caller's session context: bids the highest plus {@code raise} and records the room's answer in
         * the caller's bidder, on its context; answers the accepted bid's line or {@code refused}.
         */
        CompletableFuture<String> bid(String auction, int raise, String recipe) {
            RendererSyncContext me = RendererSyncContext.current().orElseThrow();
            Room<Auction, Bid> room = rooms.find(auction).orElseThrow(
                    () -> new IllegalArgumentException("No auction '" + auction + "': join it first"));
            CompletableFuture<Bid> answer = switch (recipe) {
                case "ask" -> room.ask(state -> take(room, state, me, raise));
                case "hop-back" -> room.context().invokeAsync(() -> take(room, room.state(), me, raise))
                        .thenApplyAsync(accepted -> accepted, me);
                default -> throw new IllegalArgumentException("recipe is 'ask' or 'hop-back', was '" + recipe + "'");
            };
            return answer.thenApply(accepted -> {
                bidder.answered(accepted); // on the caller's context, its own bidder
                return accepted == null ? "refused" : accepted.line();
            });
        }

        /** On the room's context: accepted unless the bidder leads already; tells the previous leader. */
        private @Nullable Bid take(Room<Auction, Bid> room, Auction state, RendererSyncContext user, int raise) {
            if (user == state.leaderContext) {
                return null;
            }
            Bid bid = new Bid(state.history.size(), user.name(), state.highest + raise);
            RendererSyncContext previous = state.leaderContext;
            state.history.add(bid);
            state.highest = bid.amount();
            state.leader = user.name();
            state.leaderContext = user;
            if (previous != null) {
                int beatenSeq = bid.seq() - 1; // the bidder of the context the notice runs on: the beaten one's
                registry.offer(previous, () -> bidder.outbid(beatenSeq), "an outbid");
            }
            room.publish(bid);
            return bid;
        }

        /** The room's history, one line per bid, and its highest bid and leader on the last line. */
        CompletableFuture<String> history(String auction) {
            Room<Auction, Bid> room = rooms.find(auction).orElseThrow();
            return room.ask(state -> state.history.stream().map(Bid::line).collect(Collectors.joining("\n"))
                    + "\nhighest " + state.highest + " " + state.leader);
        }
    }

    @RestController
    @OnContext
    record MvcBidding(Auctions auctions, Bidder bidder, RendererSyncContext context, LiveSse sse) {

        @PostMapping("/auction/{id}/join")
        CompletableFuture<String> join(@PathVariable String id) {
            return auctions.join(id);
        }

        @PostMapping("/auction/{id}/bid")
        CompletableFuture<String> bid(@PathVariable String id, @RequestParam int raise,
                @RequestParam(defaultValue = "ask") String recipe) {
            return auctions.bid(id, raise, recipe);
        }

        @GetMapping("/auction/me")
        String me() {
            return bidder.state();
        }

        /** A message of the session's own on its live channel, between the rooms' bids. */
        @PostMapping("/auction/note")
        void note(@RequestParam String text) {
            bidder.live().publish("note", text);
        }

        @GetMapping("/auction/{id}/history")
        CompletableFuture<String> history(@PathVariable String id) {
            return auctions.history(id);
        }

        /** The live stream: a handler that hands the response over runs off the context. */
        @OnContext(false)
        @GetMapping(path = "/auction/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
        void events(HttpServletRequest request, HttpServletResponse response) {
            sse.subscribe(request, response, context, bidder::live);
        }
    }

    @Controller
    @OnContext
    record StompBidding(Auctions auctions, Bidder bidder, LiveStomp stomp) {

        @MessageMapping("/auction/{id}/join")
        @SendToUser(destinations = "/queue/joined", broadcast = false)
        CompletableFuture<String> join(@DestinationVariable String id) {
            return auctions.join(id);
        }

        @MessageMapping("/auction/{id}/bid")
        @SendToUser(destinations = "/queue/answer", broadcast = false)
        CompletableFuture<String> bid(@DestinationVariable String id, String raise) {
            return auctions.bid(id, Integer.parseInt(raise), "ask");
        }

        @MessageMapping("/auction/me")
        @SendToUser(destinations = "/queue/me", broadcast = false)
        String me() {
            return bidder.state();
        }

        /** A tab's live stream: the bidder's channel on the session's destination {@code /queue/<tab>}. */
        @MessageMapping("/auction/tab")
        void tab(String tab, SimpMessageHeaderAccessor headers) {
            bidder.live().subscribe(stomp.toSession(headers.getSessionId(), "/queue/" + tab, null));
        }
    }
}
