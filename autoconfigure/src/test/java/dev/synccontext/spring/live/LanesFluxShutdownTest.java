package dev.synccontext.spring.live;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.annotation.DirtiesContext;

/** {@link LanesShutdownScenario} on Reactor Netty. */
@SpringBootTest(classes = LanesFluxApp.class, webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "spring.main.web-application-type=reactive", LanesScenarios.POLICY, LanesScenarios.BUFFER,
        LanesScenarios.REPLAY, "server.shutdown=graceful"})
@DirtiesContext
class LanesFluxShutdownTest extends LanesShutdownScenario {

    @Override
    String sessionCookie() {
        return "SESSION";
    }
}
