package dev.synccontext.cluster;

import dev.synccontext.live.LiveChannel;
import dev.synccontext.spring.live.LiveChannels;
import dev.synccontext.spring.scope.ContextScoped;
import jakarta.annotation.PreDestroy;
import org.springframework.core.env.Environment;

/**
 * A session's live board over its {@code @Durable} {@link DurableClusterApp.Counter}: the channel is node-local (a
 * plain {@code @ContextScoped} bean), its value is the durable counter's, so a snapshot on whichever node the tab
 * reconnects to shows what that node restored. Events are {@code {"node":…,"count":…}}, as {@link SessionBoard}'s.
 */
@ContextScoped
public class DurableBoard {

    private final LiveChannel live;
    private final DurableClusterApp.Counter counter;
    private final String node;

    public DurableBoard(LiveChannels channels, DurableClusterApp.Counter counter, Environment environment) {
        this.counter = counter;
        this.node = environment.getProperty("synccontext.session.node-id", "?");
        this.live = channels.open("durable-board", this::snapshot);
    }

    /** What is published: the counter, and the node that sent it. */
    public record State(String node, int count) {
    }

    /** On the context: the durable counter's value here (the first read restores it from the store). */
    public State snapshot() {
        return new State(node, counter.getCount());
    }

    /** On the context, as a subscription starts. */
    LiveChannel live() {
        return live;
    }

    /** On the context, after the counter changed: to every tab of the session on this node. */
    void changed() {
        live.publish("board", "board", snapshot());
    }

    /** On the context when the session ends here: every tab gets "ended", then its stream closes. */
    @PreDestroy
    void ended() {
        live.end("ended", "The session ended.");
    }
}
