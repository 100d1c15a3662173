package com.example.live;

import dev.synccontext.spring.live.LiveChannels;
import dev.synccontext.spring.scope.ContextScoped;
import dev.synccontext.live.LiveChannel;
import jakarta.annotation.PreDestroy;
import org.springframework.stereotype.Component;

@Component
@ContextScoped // one board per session, on the session's context: plain fields, no lock
public class Board {

    private final LiveChannel live;
    private long counter;

    public Board(LiveChannels channels) {
        this.live = channels.open("board", this::snapshot); // synccontext.live.* settings
    }

    /** What is published: immutable, because it is encoded later, off the context. */
    public record State(long counter) {
    }

    public State snapshot() {
        return new State(counter);
    }

    public State increment() {
        counter++;
        live.publish("board", "board", snapshot()); // event name, coalescing key, data: never blocks
        return snapshot();
    }

    public LiveChannel live() {
        return live;
    }

    @PreDestroy // on the context, when the session ends: every tab gets "ended", then its stream closes
    void ended() {
        live.end("ended", "The session ended.");
    }
}
