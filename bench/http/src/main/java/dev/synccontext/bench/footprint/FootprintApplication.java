package dev.synccontext.bench.footprint;

import dev.synccontext.RendererSyncContext;
import jakarta.servlet.http.HttpSession;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The application {@link SessionFootprintReport} measures: one endpoint that starts a session and, when the
 * starter is on, has the session's context run one callback, so that everything the starter keeps for an idle
 * session exists (its handle, its context, its registry entry). With {@code synccontext.enabled=false} the
 * same request only starts the session: the same application without the starter's part.
 */
@SpringBootApplication
public class FootprintApplication {

    @RestController
    static class SessionController {

        private final ObjectProvider<RendererSyncContext> context;

        SessionController(ObjectProvider<RendererSyncContext> context) {
            this.context = context;
        }

        @PostMapping("/session")
        String start(HttpSession session) {
            session.setAttribute("visits", 1);
            RendererSyncContext sessionContext = context.getIfAvailable();
            if (sessionContext != null) {
                sessionContext.invokeAsync(() -> { }).join(); // the session's context now exists, and is idle
            }
            return session.getId();
        }
    }
}
