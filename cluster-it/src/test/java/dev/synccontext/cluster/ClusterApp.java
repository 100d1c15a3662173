package dev.synccontext.cluster;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.registry.SyncContextRegistry;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.time.Duration;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The application every node runs: the starter, Spring MVC and Spring Session Data Redis, nothing
 * else. A user's code, written as the README tells users to write it: the session's state that must
 * survive a failover is a Serializable session attribute written inside the session's context on the
 * request thread (the callback is joined before the response is written), never in the context. Its live
 * board ({@link SessionBoard}, {@link SessionBoardController}) pushes that kind of state over Server-Sent Events.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({ ClusterApp.SessionController.class, ClusterApp.ScopedState.class, SessionBoard.class, SessionBoardController.class,
        LiveArrivals.class }) // no scan: ReactiveClusterApp shares the package
public class ClusterApp {

    /** What {@link ScopedTally} carries, so a test can look for it in every command Redis executed. */
    static final String SCOPED_MARKER = "context-scoped-state-of-this-node";

    /**
     * A session's node-local state, as the README tells users to keep it: a {@code @ContextScoped} bean with
     * plain fields. Deliberately not Serializable: a write of it to the session store would fail.
     */
    public static class ScopedTally {
        private final String marker = SCOPED_MARKER;
        private int count;

        public int increment() {
            return ++count;
        }

        @Override
        public String toString() {
            return marker + ":" + count;
        }
    }

    @org.springframework.context.annotation.Configuration(proxyBeanMethods = false)
    static class ScopedState {
        @org.springframework.context.annotation.Bean
        @dev.synccontext.spring.scope.ContextScoped
        ScopedTally scopedTally() {
            return new ScopedTally();
        }
    }

    public static void main(String[] args) {
        SpringApplication.run(ClusterApp.class, args);
    }

    @RestController
    static class SessionController {

        private final RendererSyncContext context;
        private final SyncContextRegistry registry;
        private final String node;

        private final ScopedTally tally;

        SessionController(RendererSyncContext context, SyncContextRegistry registry, ScopedTally tally,
                org.springframework.core.env.Environment environment) {
            this.context = context;
            this.tally = tally;
            this.registry = registry;
            this.node = environment.getProperty("synccontext.session.node-id", "?");
        }

        /** Increments the session's Serializable counter inside the session's context; answers node, value. */
        @PostMapping("/increment")
        ResponseEntity<String> increment(HttpSession session) {
            int next = context.invokeAsync(() -> {
                context.assertAccess();
                Integer count = (Integer) session.getAttribute("count");
                int value = (count == null ? 0 : count) + 1;
                session.setAttribute("count", value);
                return value;
            }).join();
            return answer(next);
        }

        /** Increments the session's {@link ScopedTally} (node-local, never in the session store). */
        @PostMapping("/scoped")
        ResponseEntity<String> scoped() {
            return answer(context.invokeAsync(tally::increment).join());
        }

        /** The session's context, by name, without writing anything to the session. */
        @GetMapping("/context")
        ResponseEntity<String> context() {
            return answer(context.invokeAsync(context::name).join());
        }

        @GetMapping("/session-id")
        ResponseEntity<String> sessionId(HttpSession session) {
            return answer(session.getId());
        }

        /** Sets this session's own timeout (short ones make sessions expire within a test). */
        @PostMapping("/timeout")
        ResponseEntity<String> timeout(HttpSession session, @RequestParam int seconds) {
            session.setMaxInactiveInterval(seconds);
            return answer(context.name());
        }

        /** changeSessionId(), as a login does; answers the context the request sees afterwards. */
        @PostMapping("/login")
        ResponseEntity<String> login(HttpServletRequest request) {
            request.changeSessionId();
            return answer(context.invokeAsync(context::name).join());
        }

        @PostMapping("/logout")
        ResponseEntity<String> logout(HttpSession session) {
            session.invalidate();
            return answer("ended");
        }

        @GetMapping("/open")
        ResponseEntity<Map<String, Object>> open() {
            return ResponseEntity.ok().header("X-Node", node).body(Map.of("contexts", registry.contexts().size(),
                    "closing", registry.closingContexts(), "forcedCloses", registry.forcedCloses()));
        }

        private ResponseEntity<String> answer(Object value) {
            return ResponseEntity.ok().header("X-Node", node).body(String.valueOf(value));
        }
    }

    /** How long the nodes' idle eviction waits in the tests that rely on it. */
    static final Duration SHORT_IDLE = Duration.ofSeconds(2);
}
