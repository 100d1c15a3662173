package dev.synccontext.bench.http;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.handler.OnContext;
import jakarta.servlet.http.HttpSession;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.util.WebUtils;

/**
 * The per-session counter, three ways ({@code POST /counter/...}):
 * <ul>
 *   <li>{@code context}: through the session's injected {@link RendererSyncContext}, as the README shows
 *       (inline when the session is idle, queued behind its running callback when not);</li>
 *   <li>{@code synchronized}: {@code synchronized} on the session mutex, Spring MVC's
 *       {@code synchronizeOnSession} style;</li>
 *   <li>{@code unserialized}: no serialization (wrong under concurrent requests of one session: the floor);</li>
 *   <li>{@code annotated}: an {@link OnContext} handler on a {@code @ContextScoped} {@link ContextCounter}, the
 *       declarative form of the {@code context} way (the body runs on the session's context);</li>
 *   <li>{@code durable}: the {@code annotated} way on a {@link DurableCounter}, a {@code @Durable} bean checkpointed
 *       to the in-memory state store: against {@code annotated}, the durable layer's cost.</li>
 * </ul>
 * {@code POST /counter/session} starts a session (the load script collects 256 of them first);
 * {@code GET /counter/audit} compares, per way, the sum of all sessions' counters with the requests served.
 */
@RestController
@RequestMapping("/counter")
class CounterController {

    private static final String COUNTERS = SessionCounters.class.getName();

    private final RendererSyncContext context;
    private final ContextCounter contextCounter;
    private final DurableCounter durableCounter;
    private final Map<String, SessionCounters> sessions = new ConcurrentHashMap<>();
    private final LongAdder viaContext = new LongAdder();
    private final LongAdder underMutex = new LongAdder();
    private final LongAdder unserialized = new LongAdder();
    private final LongAdder annotated = new LongAdder();
    private final LongAdder durable = new LongAdder();

    CounterController(RendererSyncContext context, ContextCounter contextCounter, DurableCounter durableCounter) {
        this.context = context;
        this.contextCounter = contextCounter;
        this.durableCounter = durableCounter;
    }

    @PostMapping("/session")
    String start(HttpSession session) {
        SessionCounters counters = new SessionCounters();
        session.setAttribute(COUNTERS, counters);
        sessions.put(session.getId(), counters);
        return session.getId();
    }

    @PostMapping("/context")
    CompletableFuture<Integer> viaContext(HttpSession session) {
        SessionCounters counters = counters(session);
        viaContext.increment();
        return context.invokeAsync(() -> ++counters.viaContext);
    }

    // The other two ways answer an Integer too, not an int: the response is then written by the same
    // converter path as the context way's completed CompletableFuture<Integer>, so the three differ only
    // in how they serialize (an int return type takes a different, cheaper route through Spring MVC's
    // converter selection: bench/README.md).
    @PostMapping("/synchronized")
    Integer underMutex(HttpSession session) {
        SessionCounters counters = counters(session);
        underMutex.increment();
        synchronized (WebUtils.getSessionMutex(session)) {
            return ++counters.underMutex;
        }
    }

    @PostMapping("/unserialized")
    Integer unserialized(HttpSession session) {
        SessionCounters counters = counters(session);
        unserialized.increment();
        return ++counters.unserialized;
    }

    @OnContext
    @PostMapping("/annotated")
    Integer annotated(HttpSession session) {
        counters(session); // the same check as the other ways: a session started by POST /counter/session
        annotated.increment();
        return contextCounter.increment();
    }

    @OnContext
    @PostMapping("/durable")
    Integer durable(HttpSession session) {
        counters(session);
        durable.increment();
        return durableCounter.increment();
    }

    /** Per way: requests served and the sum of the sessions' counters (equal unless updates were lost). */
    @GetMapping("/audit")
    Map<String, Way> audit() {
        long context = 0;
        long mutex = 0;
        long none = 0;
        for (SessionCounters c : sessions.values()) {
            // Read after the load has stopped: a sanity check of the run, not a proof (the core's stress
            // tests prove the serialization).
            context += c.viaContext;
            mutex += c.underMutex;
            none += c.unserialized;
        }
        Map<String, Way> audit = new LinkedHashMap<>();
        audit.put("context", new Way(viaContext.sum(), context));
        audit.put("synchronized", new Way(underMutex.sum(), mutex));
        audit.put("unserialized", new Way(unserialized.sum(), none));
        audit.put("annotated", new Way(annotated.sum(), ContextCounter.ALL.stream().mapToLong(ContextCounter::count).sum()));
        return audit;
    }

    /** One way's audit: requests served, and the increments the sessions' counters kept. */
    record Way(long requests, long counted) {
    }

    private static SessionCounters counters(HttpSession session) {
        Object counters = session.getAttribute(COUNTERS);
        if (!(counters instanceof SessionCounters found)) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
                    "No counters in this session: POST /counter/session first and send its JSESSIONID cookie");
        }
        return found;
    }
}
