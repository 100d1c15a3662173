package dev.synccontext.spring.live;

import dev.synccontext.testing.OnRandomPort;
import org.springframework.test.annotation.DirtiesContext;

/** {@link LanesShutdownScenario} on Tomcat. */
@OnRandomPort(classes = LanesApp.class, properties = {
        LanesScenarios.POLICY, LanesScenarios.BUFFER, LanesScenarios.REPLAY, "server.shutdown=graceful"})
@DirtiesContext
class LanesHttpShutdownTest extends LanesShutdownScenario {

    @Override
    String sessionCookie() {
        return "JSESSIONID";
    }
}
