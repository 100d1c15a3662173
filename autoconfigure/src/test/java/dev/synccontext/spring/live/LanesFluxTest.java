package dev.synccontext.spring.live;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

/** {@link LanesScenarios} on WebFlux ({@link LiveFlux} with {@link LiveLane}s) over real Reactor Netty. */
@SpringBootTest(classes = LanesFluxApp.class, webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "spring.main.web-application-type=reactive", LanesScenarios.POLICY, LanesScenarios.BUFFER,
        LanesScenarios.REPLAY, LanesScenarios.CAP, "server.shutdown=immediate"})
class LanesFluxTest extends LanesScenarios {

    @Override
    String sessionCookie() {
        return "SESSION";
    }
}
