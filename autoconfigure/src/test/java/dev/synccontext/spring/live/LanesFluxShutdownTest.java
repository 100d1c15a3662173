package dev.synccontext.spring.live;

import dev.synccontext.testing.OnRandomPort;
import org.springframework.test.annotation.DirtiesContext;

/** {@link LanesShutdownScenario} on Reactor Netty. */
@OnRandomPort(classes = LanesFluxApp.class, properties = {
        "spring.main.web-application-type=reactive", LanesScenarios.POLICY, LanesScenarios.BUFFER,
        LanesScenarios.REPLAY, "server.shutdown=graceful"})
@DirtiesContext
class LanesFluxShutdownTest extends LanesShutdownScenario {

    @Override
    String sessionCookie() {
        return "SESSION";
    }
}
