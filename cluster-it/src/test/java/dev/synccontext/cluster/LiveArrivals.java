package dev.synccontext.cluster;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * Every event-stream request a node received: its session, the {@code Last-Event-ID} it carried, and when
 * ({@link System#nanoTime()}, so a test running the node in its own JVM can compare it with its own clock).
 * What a deployment would read from its access log; here it lets a test see, on the node a client moved to,
 * that the client came back with its session and the id of the last event it had.
 */
@Component
public class LiveArrivals {

    /** One event-stream request. */
    public record Arrival(String sessionId, @Nullable String lastEventId, long nanoTime) {
    }

    private final List<Arrival> arrivals = new CopyOnWriteArrayList<>();

    void add(String sessionId, @Nullable String lastEventId) {
        arrivals.add(new Arrival(sessionId, lastEventId, System.nanoTime()));
    }

    public List<Arrival> all() {
        return List.copyOf(arrivals);
    }
}
