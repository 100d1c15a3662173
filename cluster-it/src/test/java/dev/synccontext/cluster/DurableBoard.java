package dev.synccontext.cluster;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.live.LiveChannel;
import dev.synccontext.spring.live.LiveChannels;
import dev.synccontext.spring.live.LiveSse;
import dev.synccontext.spring.scope.ContextScoped;
import jakarta.annotation.PreDestroy;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.util.List;
import org.springframework.core.env.Environment;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A session's live view of its {@link DurableClusterApp.Counter}, written as autoconfigure/docs/live-channels.md
 * writes a board: a node-local {@code @ContextScoped} bean with a {@link LiveChannel}, whose snapshot reads the
 * durable counter. Unlike {@link SessionBoard} it keeps no copy of the value anywhere: on the node a session moves
 * to, the first snapshot reads the counter, and that read is what acquires the session and restores its stored
 * state. So a tab that reconnects there sees the restored count as its first event.
 */
@ContextScoped
public class DurableBoard {

    private final LiveChannel live;
    private final DurableClusterApp.Counter counter;
    private final String node;

    public DurableBoard(LiveChannels channels, DurableClusterApp.Counter counter, Environment environment) {
        this.counter = counter;
        this.node = environment.getProperty("synccontext.session.node-id", "?");
        this.live = channels.open("board", this::snapshot);
    }

    /** What is published: the count, and the node that sent it (so a client knows where it landed). */
    public record State(String node, int count) {
    }

    /** Inside the session's context: the durable count as this node has it. */
    public State snapshot() {
        return new State(node, counter.getCount());
    }

    /** Inside the session's context, after the counter changed: every tab gets the new count. */
    void changed() {
        live.publish("board", "board", snapshot());
    }

    LiveChannel live() {
        return live;
    }

    /** On the context when it is released here: every tab gets "ended", then its stream closes. */
    @PreDestroy
    void ended() {
        live.end("ended", "The session left this node.");
    }

    /**
     * The board's event stream ({@link Nginx#EVENT_STREAMS}: ids, resume by {@code Last-Event-ID}, a snapshot
     * otherwise) and what arrived on it, for a test that runs this node in a JVM of its own.
     */
    @RestController
    static class Events {

        private final RendererSyncContext context;
        private final DurableBoard board;
        private final LiveSse sse;
        private final LiveArrivals arrivals;

        Events(RendererSyncContext context, DurableBoard board, LiveSse sse, LiveArrivals arrivals) {
            this.context = context;
            this.board = board;
            this.sse = sse;
            this.arrivals = arrivals;
        }

        @GetMapping(path = Nginx.EVENT_STREAMS, produces = MediaType.TEXT_EVENT_STREAM_VALUE)
        void events(HttpServletRequest request, HttpServletResponse response, HttpSession session) {
            arrivals.add(session.getId(), request.getHeader("Last-Event-ID"));
            sse.subscribe(request, response, context, board::live);
        }

        /** Every event-stream request this node received, one line each: session id, then the Last-Event-ID sent. */
        @GetMapping("/durable/arrivals")
        List<String> arrivals() {
            return arrivals.all().stream().map(a -> a.sessionId() + " " + a.lastEventId()).toList();
        }
    }
}
