package dev.synccontext.sample;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.stereotype.Component;

/**
 * The boards of the sessions that are alive right now, so that work which has no request of its own
 * (the ticker) can reach each of them. Boards add themselves when their session creates them and
 * remove themselves when it ends.
 *
 * <p>Shutdown needs nothing here: the starter's drain (autoconfigure/docs/live-channels.md, "Drain on shutdown") tells
 * every open tab to go away, paced, before the web server's graceful phase, and the page reconnects.
 */
@Component
public final class LiveBoards {

    private final Set<Board> boards = ConcurrentHashMap.newKeySet();

    void add(Board board) {
        boards.add(board);
    }

    void remove(Board board) {
        boards.remove(board);
    }

    /** A snapshot of the live boards. */
    List<Board> all() {
        return List.copyOf(boards);
    }

    /** How many sessions have a live board. */
    public int size() {
        return boards.size();
    }
}
