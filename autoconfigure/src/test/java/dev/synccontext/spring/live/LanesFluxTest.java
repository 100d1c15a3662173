package dev.synccontext.spring.live;

import dev.synccontext.testing.OnRandomPort;

/** {@link LanesScenarios} on WebFlux ({@link LiveFlux} with {@link LiveLane}s) over real Reactor Netty. */
@OnRandomPort(classes = LanesFluxApp.class, properties = {
        "spring.main.web-application-type=reactive", LanesScenarios.POLICY, LanesScenarios.BUFFER,
        LanesScenarios.REPLAY, LanesScenarios.CAP, "server.shutdown=immediate"})
class LanesFluxTest extends LanesScenarios {

    @Override
    String sessionCookie() {
        return "SESSION";
    }
}
