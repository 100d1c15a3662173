package dev.synccontext.spring.session;


import dev.synccontext.testing.Browser;
import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.testing.OnRandomPort;

/**
 * The servlet session holds a small String handle and nothing else of ours; the node's context survives
 * a session id change, is released by the container's session listener when the session ends, and by
 * idle eviction when no request asks for it.
 */
@OnRandomPort(classes = SessionHandleHttpTest.App.class,
        properties = { "synccontext.session.node-id=node-x", "synccontext.session.idle-timeout=1h" })
class SessionHandleHttpTest {

    @Autowired
    SessionContexts sessions;

    @Test
    void theSessionHoldsOnlyAShortStringHandleNamingTheNode(Browser alice) {
        alice.get("/context");
        String attributes = alice.get("/attributes").body();
        assertThat(attributes).startsWith(SessionHandle.ATTRIBUTE + "=java.lang.String:").endsWith("@node-x")
                .doesNotContain(",");
        assertThat(attributes.substring(attributes.indexOf(':') + 1)).hasSizeLessThan(40);
    }

    @Test
    void changingTheSessionIdKeepsTheSameContext(Browser bob) {
        String before = bob.get("/context").body();
        String idBefore = bob.get("/session-id").body();
        String afterLogin = bob.post("/login").body(); // changeSessionId(), then the context in the same request
        assertThat(bob.get("/session-id").body()).isNotEqualTo(idBefore);
        assertThat(afterLogin).isEqualTo(before);
        assertThat(bob.get("/context").body()).isEqualTo(before);
    }

    @Test
    void invalidatingTheSessionReleasesItsContextThroughTheListener(Browser carol) {
        String name = carol.get("/context").body();
        long released = sessions.endedReleases();
        assertThat(openNames()).contains(name);

        carol.post("/logout");

        assertThat(openNames()).as("released by the container's session listener, synchronously").doesNotContain(name);
        assertThat(sessions.endedReleases()).isEqualTo(released + 1);
        assertThat(carol.get("/context").body()).as("a new session gets a new context").isNotEqualTo(name);
    }

    @Test
    void idleEvictionReleasesAContextNoRequestAskedForAndTheSessionGetsAFreshOneLater(Browser dave) {
        String name = dave.get("/context").body();
        long evictionsBefore = sessions.idleEvictions();
        // Idle timeout is an hour here; evict as if it had passed, through the package-private clock.
        sessions.evictIdle(System.nanoTime() + Duration.ofHours(2).toNanos());
        assertThat(sessions.idleEvictions()).isGreaterThan(evictionsBefore);
        assertThat(openNames()).doesNotContain(name);
        assertThat(dave.get("/context").body()).as("the session's next request gets a fresh context").isNotEqualTo(name);
    }

    private java.util.List<String> openNames() {
        return registry.contexts().stream().map(RendererSyncContext::name).toList();
    }

    @Autowired
    SyncContextRegistry registry;

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(HandleController.class)
    static class App {
    }

    @RestController
    static class HandleController {

        private final RendererSyncContext context;

        HandleController(RendererSyncContext context) {
            this.context = context;
        }

        @GetMapping("/context")
        String context() {
            return context.invokeAsync(context::name).join();
        }

        @GetMapping("/session-id")
        String sessionId(HttpSession session) {
            return session.getId();
        }

        @GetMapping("/attributes")
        String attributes(HttpSession session) {
            StringBuilder all = new StringBuilder();
            for (String name : Collections.list(session.getAttributeNames())) {
                Object value = session.getAttribute(name);
                all.append(all.isEmpty() ? "" : ",").append(name).append('=').append(value.getClass().getName())
                        .append(':').append(value);
            }
            return all.toString();
        }

        @PostMapping("/login")
        String login(HttpServletRequest request) {
            request.changeSessionId();
            return context.name();
        }

        @PostMapping("/logout")
        Map<String, String> logout(HttpSession session) {
            session.invalidate();
            return Map.of();
        }
    }
}
