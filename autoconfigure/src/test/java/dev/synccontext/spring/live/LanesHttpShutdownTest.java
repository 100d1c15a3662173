package dev.synccontext.spring.live;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.annotation.DirtiesContext;

/** {@link LanesShutdownScenario} on Tomcat. */
@SpringBootTest(classes = LanesApp.class, webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        LanesScenarios.POLICY, LanesScenarios.BUFFER, LanesScenarios.REPLAY, "server.shutdown=graceful"})
@DirtiesContext
class LanesHttpShutdownTest extends LanesShutdownScenario {

    @Override
    String sessionCookie() {
        return "JSESSIONID";
    }
}
