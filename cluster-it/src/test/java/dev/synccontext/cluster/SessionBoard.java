package dev.synccontext.cluster;

import dev.synccontext.spring.live.LiveChannels;
import dev.synccontext.spring.scope.ContextScoped;
import dev.synccontext.live.LiveChannel;
import jakarta.annotation.PreDestroy;
import jakarta.servlet.http.HttpSession;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * A session's live board, written as autoconfigure/README.md's "Live channels" writes one (a
 * {@code @ContextScoped} bean with a {@link LiveChannel}, published to and subscribed inside the session's
 * context), with one change a cluster needs: its value is not the board's own. The board is node-local and
 * starts empty on the node a session moves to, so the value lives where "Running on several nodes" says state
 * that must survive a move lives: the session attribute {@value #ATTRIBUTE} (Spring Session, in Redis),
 * written inside the context on the request thread. The board mirrors it: every change writes the attribute,
 * and every subscription first reads it from the subscribing request's session, so a snapshot shows the
 * session's value on whichever node sends it.
 */
@Component
@ContextScoped
public class SessionBoard {

    /** The session attribute holding the board's value (an {@code Integer}). */
    static final String ATTRIBUTE = "board";

    private final LiveChannel live;
    private final String node;

    // ---- owned by the context ----
    private int count;

    public SessionBoard(LiveChannels channels, Environment environment) {
        this.node = environment.getProperty("synccontext.session.node-id", "?");
        this.live = channels.open("board", this::snapshot);
    }

    /** What is published: the value, and the node that sent it (so a client knows where it landed). */
    public record State(String node, int count) {
    }

    public State snapshot() {
        return new State(node, count);
    }

    /**
     * Inside the context, as a subscription starts: the channel, its snapshot brought up to the value the
     * subscribing request's session holds (the session this request loaded from Redis).
     */
    LiveChannel liveFor(HttpSession session) {
        count = valueOf(session);
        return live;
    }

    /** Inside the context, on the request thread: one more, in the session (saved when the response commits) and to every tab. */
    State increment(HttpSession session) {
        count = valueOf(session) + 1;
        session.setAttribute(ATTRIBUTE, count);
        live.publish("board", "board", snapshot());
        return snapshot();
    }

    private static int valueOf(HttpSession session) {
        return session.getAttribute(ATTRIBUTE) instanceof Integer value ? value : 0;
    }

    /** On the context when the session ends here: every tab gets "ended", then its stream closes. */
    @PreDestroy
    void ended() {
        live.end("ended", "The session ended.");
    }
}
