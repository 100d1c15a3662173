package dev.synccontext.cluster;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.durable.redis.RedisStateStore;
import dev.synccontext.spring.durable.session.Durable;
import dev.synccontext.spring.durable.session.DurableContexts;
import dev.synccontext.spring.durable.session.DurableCounters;
import dev.synccontext.spring.handler.OnContext;
import dev.synccontext.spring.live.LiveSse;
import dev.synccontext.spring.scope.ContextScoped;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The application of the durable-state cluster tests: a session's {@link Counter} is a {@code @Durable}
 * {@code @ContextScoped} bean behind {@code @OnContext} handlers, as README tells users to write it, on Spring
 * Session Data Redis and the Redis state store. Each handler body marks the session in flight in Redis
 * ({@code SET NX} through a plain client) and counts an overlap when the marker is already set: two bodies of one
 * session running at once, on two nodes. The state store is the library's {@link RedisStateStore} behind
 * {@link PremiseStore}, which the premises switch to break the lease or the fence; it passes everything through
 * unless told otherwise.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({ DurableClusterApp.CounterController.class, DurableClusterApp.Counter.class, DurableBoard.class,
        DurableClusterApp.BoardController.class }) // no scan: shared package
public class DurableClusterApp {

    /** Where the handlers count overlapping bodies of one session. */
    static final String OVERLAPS = "it:overlaps";
    /** The prefix of a session's in-flight marker. */
    static final String IN_FLIGHT = "it:in-flight:";

    public static void main(String[] args) {
        SpringApplication.run(DurableClusterApp.class, args);
    }

    /** What a node's durable layer did, for {@code GET /durable/stats} (the MVC and the WebFlux application). */
    static Map<String, Object> counters(String node, DurableCounters c) {
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("node", node);
        stats.put("written", c.snapshotsWritten());
        stats.put("rejected", c.rejected());
        stats.put("staleCopiesDropped", c.staleCopiesDropped());
        stats.put("restoreHits", c.restoreHits());
        stats.put("restoreMisses", c.restoreMisses());
        stats.put("handOffsRequested", c.handOffsRequested());
        stats.put("handOffsGiven", c.handOffsGiven());
        stats.put("handOffTimeouts", c.handOffTimeouts());
        return stats;
    }

    @Bean(destroyMethod = "close")
    PremiseStore premiseStore(RedisConnectionFactory connections, StringRedisTemplate redis) {
        return new PremiseStore(new RedisStateStore(connections, "synccontext:"), redis, "synccontext:");
    }

    /** A session's counter, kept across nodes; {@code session} names its session in the stored snapshot. */
    @ContextScoped
    @Durable(name = "counter")
    public static class Counter {
        private String session = "";
        private int count;

        public String getSession() {
            return session;
        }

        public void setSession(String session) {
            this.session = session;
        }

        public int getCount() {
            return count;
        }

        public void setCount(int count) {
            this.count = count;
        }
    }

    /** The board's event stream, at the path nginx passes unbuffered; the subscription runs on the context. */
    @RestController
    record BoardController(RendererSyncContext context, DurableBoard board, LiveSse sse) {

        @GetMapping(path = Nginx.EVENT_STREAMS, produces = MediaType.TEXT_EVENT_STREAM_VALUE)
        void events(HttpServletRequest request, HttpServletResponse response) {
            sse.subscribe(request, response, context, board::live);
        }
    }

    @RestController
    static class CounterController {

        private final Counter counter;
        private final DurableBoard board;
        private final StringRedisTemplate redis;
        private final DurableContexts durable;
        private final PremiseStore store;
        private final String node;

        CounterController(Counter counter, DurableBoard board, StringRedisTemplate redis, DurableContexts durable,
                PremiseStore store, Environment environment) {
            this.counter = counter;
            this.board = board;
            this.redis = redis;
            this.durable = durable;
            this.store = store;
            this.node = environment.getProperty("synccontext.session.node-id", "?");
        }

        @OnContext
        @PostMapping("/durable/increment")
        ResponseEntity<String> increment(HttpSession session) {
            return answer(inFlight(session.getId(), () -> incremented(session, false)));
        }

        /** The same change, then pushed to the session's tabs on this node ({@link DurableBoard}). */
        @OnContext
        @PostMapping("/durable/board/increment")
        ResponseEntity<String> incrementAndPush(HttpSession session) {
            return answer(inFlight(session.getId(), () -> incremented(session, true)));
        }

        /** One more on the session's counter, told to its tabs here when {@code push}; answers the new count. */
        private int incremented(HttpSession session, boolean push) {
            counter.setSession(session.getId());
            counter.setCount(counter.getCount() + 1);
            if (push) {
                board.changed();
            }
            return counter.getCount();
        }

        @OnContext
        @GetMapping("/durable/count")
        ResponseEntity<String> count(HttpSession session) {
            return answer(inFlight(session.getId(), counter::getCount));
        }

        /** What this node's durable layer did, and how its store is switched. */
        @GetMapping("/durable/stats")
        Map<String, Object> stats() {
            Map<String, Object> stats = counters(node, durable.counters());
            stats.put("mode", store.mode().name());
            stats.put("forced", store.forcedWrites());
            return stats;
        }

        /** Switches this node's store (the premises); {@code REAL} passes everything through. */
        @PostMapping("/durable/store")
        String store(@RequestParam PremiseStore.Mode mode) {
            store.mode(mode);
            return mode.name();
        }

        /**
         * Runs {@code body} with the session's in-flight marker set. The counter is resolved first: that is where the
         * node takes the session (waiting for a hand-off), so the marker covers exactly the time the body runs as
         * the session's owner.
         */
        private <T> T inFlight(String session, Supplier<T> body) {
            counter.getCount();
            String marker = IN_FLIGHT + session;
            Boolean first = redis.opsForValue().setIfAbsent(marker, node, Duration.ofSeconds(30));
            if (!Boolean.TRUE.equals(first)) {
                redis.opsForValue().increment(OVERLAPS);
                return body.get(); // overlapping: counted, and the marker is the other body's to remove
            }
            try {
                return body.get();
            } finally {
                redis.delete(marker);
            }
        }

        private ResponseEntity<String> answer(Object value) {
            return ResponseEntity.ok().header("X-Node", node).body(String.valueOf(value));
        }
    }
}
