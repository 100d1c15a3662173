package dev.synccontext.sample;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * The boards of the sessions that are alive right now, so that work which has no request of its own
 * (the ticker) can reach each of them. Boards add themselves when their session creates them and
 * remove themselves when it ends.
 *
 * <p>On shutdown it ends every board's event streams (with an {@code ended} event that says why)
 * before the web server's graceful shutdown starts, which would otherwise wait for those endless
 * responses until its timeout. Its phase, {@link SmartLifecycle#DEFAULT_PHASE}, is stopped before
 * the web server's ({@code DEFAULT_PHASE - 1024}).
 */
@Component
public final class LiveBoards implements SmartLifecycle {

    private static final long SHUTDOWN_WAIT_MILLIS = 5_000;

    private final Set<Board> boards = ConcurrentHashMap.newKeySet();
    private volatile boolean running;

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

    @Override
    public void start() {
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        List<CompletableFuture<Void>> ending = all().stream().map(Board::serverStopping).toList();
        try {
            CompletableFuture.allOf(ending.toArray(CompletableFuture[]::new))
                    .get(SHUTDOWN_WAIT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException stillBusy) {
            // A board whose context is busy or closed keeps its streams; graceful shutdown bounds the rest.
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
