package dev.synccontext.spring.live;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.live.LiveChannel;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.room.Room;
import dev.synccontext.room.Rooms;
import dev.synccontext.spring.handler.OnContext;
import dev.synccontext.spring.scope.ContextScoped;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A session's private channel ({@link Me}) and lobbies, each a room with a channel of its own that every member's
 * tab subscribes to ({@link Lobbies}): the tab's one stream carries both as lanes ({@link LiveLane}). A lobby also
 * publishes into the private channel of the sessions that joined it that way ({@code join-into-me}): the one
 * shared sequence that {@link LanesHttpTest}'s premise compares with.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({LanesApp.Me.class, LanesApp.Lobbies.class, LanesApp.MvcLanes.class})
class LanesApp {

    /** A session's private channel. */
    @Component
    @ContextScoped
    static class Me extends ScopedBoard {

        Me(LiveChannels channels) {
            super(channels, "me");
        }

        @Override
        protected Object state() {
            return "me";
        }

        /** Its subscribers' {@code buffered,written,dropped}, one line each. */
        String subscribers() {
            return live.subscribers().stream()
                    .map(s -> s.buffered() + "," + s.written() + "," + s.dropped()).collect(Collectors.joining("\n"));
        }
    }

    /** A lobby's state, on the lobby's context: its lines and its own channel. */
    static final class Lobby {
        final List<String> lines = new ArrayList<>();
        final LiveChannel live;

        Lobby(LiveChannels channels, String id) {
            this.live = channels.builder("lobby:" + id, "room").build(() -> "lines:" + lines.size());
        }
    }

    @Component
    static class Lobbies {

        final Rooms<Lobby, String> rooms;

        Lobbies(SyncContextRegistry registry, LiveChannels channels) {
            this.rooms = Rooms.<Lobby, String>builder(registry, "lobby", id -> new Lobby(channels, id)).build();
        }

        /** The lobby's channel as a lane of a tab's stream, named after the lobby's key. */
        LiveLane lane(String id) {
            Room<Lobby, String> room = rooms.open(id);
            return LiveLane.of(room.key(), room.context(), () -> room.state().live);
        }

        /** A line said in the lobby: on its own channel, and into the private channel of who joined that way. */
        CompletableFuture<Integer> say(String id, String text) {
            Room<Lobby, String> room = rooms.open(id);
            return room.ask(lobby -> {
                lobby.lines.add(text);
                lobby.live.publish("line", text);
                room.publish(text);
                return lobby.lines.size();
            });
        }

        /** {@code mine} and a lane per lobby of {@code ids}: what a tab's stream carries. */
        List<LiveLane> lanes(LiveLane mine, List<String> ids) {
            List<LiveLane> all = new ArrayList<>(List.of(mine));
            ids.forEach(id -> all.add(lane(id)));
            return all;
        }

        /** The one-shared-sequence way: the lobby publishes into the caller's private channel. */
        CompletableFuture<String> joinIntoMe(String id, LiveChannel mine) {
            RendererSyncContext me = RendererSyncContext.current().orElseThrow();
            Room<Lobby, String> room = rooms.open(id);
            return room.ask(lobby -> {
                room.join(me, mine, room.key(), line -> line);
                return room.key();
            });
        }

        /** The lobby closes: its channel ends with a last message. */
        CompletableFuture<Void> close(String id) {
            Room<Lobby, String> room = rooms.open(id);
            return room.ask(lobby -> {
                lobby.live.end("closed", "bye");
                return null;
            });
        }

        /** Its channel's subscribers' {@code buffered,written,dropped}, one line each. */
        CompletableFuture<String> subscribers(String id) {
            Room<Lobby, String> room = rooms.open(id);
            return room.ask(lobby -> lobby.live.subscribers().stream()
                    .map(s -> s.buffered() + "," + s.written() + "," + s.dropped())
                    .collect(Collectors.joining("\n")));
        }
    }

    @RestController
    @OnContext
    record MvcLanes(Me me, Lobbies lobbies, RendererSyncContext context, LiveSse sse) {

        @PostMapping("/lanes/note")
        void note(@RequestParam String text, @RequestParam(defaultValue = "0") int pad) {
            me.live().publish("note", text + "x".repeat(pad)); // pad: a large note without a large request
        }

        @GetMapping("/lanes/me")
        String mine() {
            return me.subscribers();
        }

        @PostMapping("/lanes/{id}/say")
        CompletableFuture<Integer> say(@PathVariable String id, @RequestParam String text,
                @RequestParam(defaultValue = "0") int pad) {
            return lobbies.say(id, text + "x".repeat(pad)); // pad: a large line without a large request
        }

        @PostMapping("/lanes/{id}/join-into-me")
        CompletableFuture<String> joinIntoMe(@PathVariable String id) {
            return lobbies.joinIntoMe(id, me.live());
        }

        @PostMapping("/lanes/{id}/close")
        CompletableFuture<Void> close(@PathVariable String id) {
            return lobbies.close(id);
        }

        @GetMapping("/lanes/{id}/subscribers")
        CompletableFuture<String> subscribers(@PathVariable String id) {
            return lobbies.subscribers(id);
        }

        /** The tab's one stream: its private channel and each lobby's, each a lane. */
        @OnContext(false)
        @GetMapping(path = "/lanes/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
        void events(HttpServletRequest request, HttpServletResponse response, @RequestParam List<String> lobby) {
            sse.subscribe(request, response, lobbies.lanes(LiveLane.of("me", context, me::live), lobby));
        }

        /** The premise's stream: the private channel alone, which joined lobbies publish into. */
        @OnContext(false)
        @GetMapping(path = "/lanes/single", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
        void single(HttpServletRequest request, HttpServletResponse response) {
            sse.subscribe(request, response, context, me::live);
        }
    }

    /** One event of a lanes stream: its lane (the SSE event), and its envelope's fields. */
    record LaneEvent(String lane, String id, String event, boolean snapshot, String data) {

        static LaneEvent of(dev.synccontext.testing.SseClient.Event sse) {
            String json = sse.data();
            if (json.startsWith("{\"closed\":")) {
                return new LaneEvent(sse.event(), "", "closed-lane", false, json);
            }
            return new LaneEvent(sse.event(), field(json, "id"), field(json, "event"),
                    json.contains("\"snapshot\":true"), json.substring(json.indexOf("\"data\":") + 7, json.length() - 1));
        }

        /** The sequence number of this event in its own channel. */
        long sequence() {
            return Long.parseLong(id.substring(id.lastIndexOf('-') + 1));
        }

        private static String field(String json, String name) {
            int start = json.indexOf("\"" + name + "\":\"") + name.length() + 4;
            return json.substring(start, json.indexOf('"', start));
        }

        static List<LaneEvent> all(List<dev.synccontext.testing.SseClient.Event> events) {
            return events.stream().map(LaneEvent::of).toList();
        }

        static List<LaneEvent> of(List<LaneEvent> events, String lane) {
            return events.stream().filter(e -> e.lane().equals(lane)).toList();
        }
    }

}
