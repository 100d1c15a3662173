package dev.synccontext.autoconfigure.durable;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.spring.durable.InMemoryStateStore;
import dev.synccontext.spring.durable.StateStore;
import dev.synccontext.spring.durable.session.Durable;
import dev.synccontext.spring.durable.session.DurableContexts;
import dev.synccontext.spring.handler.OnContext;
import dev.synccontext.spring.scope.ContextScoped;
import dev.synccontext.ContextClock;
import dev.synccontext.testing.Browser;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.session.MapSessionRepository;
import org.springframework.session.web.http.SessionRepositoryFilter;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Two nodes (two Spring Boot applications on real Tomcat in one JVM) share one state store and one session
 * repository, as two instances behind a balancer share Redis: a session counts to 5 on node A, node A stops
 * gracefully, and the same session (its cookie) counts on from 6 on node B. The premise: a bean without
 * {@code @Durable} starts again at 1 on node B.
 */
class DurableCounterAcrossNodesHttpTest {

    /** What both nodes share: the store (Redis in production) and Spring Session's repository. */
    static final StateStore STORE = new InMemoryStateStore(ContextClock.system());
    static final MapSessionRepository SESSIONS = new MapSessionRepository(new ConcurrentHashMap<>());

    private final List<ConfigurableApplicationContext> nodes = new ArrayList<>();

    @AfterEach
    void stopNodes() {
        nodes.forEach(ConfigurableApplicationContext::close);
    }

    @Test
    void aDurableCounterContinuesOnAnotherNodeAfterAGracefulStop() {
        ConfigurableApplicationContext nodeA = start();
        Browser browser = new Browser(port(nodeA));
        for (int i = 1; i <= 5; i++) {
            assertThat(browser.post("/durable").body()).isEqualTo(String.valueOf(i));
        }
        DurableContexts durableA = nodeA.getBean(DurableContexts.class);
        nodeA.close();
        String afterA = "node A wrote " + durableA.counters().snapshotsWritten() + " snapshot(s), restore misses "
                + durableA.counters().restoreMisses() + ", store sessions "
                + ((InMemoryStateStore) STORE).sessionCount();

        ConfigurableApplicationContext nodeB = start();
        List<String> onB = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            HttpResponse<String> reply = browser.send(browser.request(base(nodeB).resolve("/durable")).POST(java.net.http.HttpRequest.BodyPublishers.noBody()));
            assertThat(reply.statusCode()).as(reply.body()).isEqualTo(200);
            onB.add(reply.body());
        }

        DurableContexts durableB = nodeB.getBean(DurableContexts.class);
        assertThat(onB).as("the same session on node B (" + afterA + "; node B: hand-offs "
                + nodeB.getBean(dev.synccontext.spring.session.SessionContexts.class).handoffs() + ", restore hits "
                + durableB.counters().restoreHits() + ", misses " + durableB.counters().restoreMisses() + ")").containsExactly("6", "7", "8", "9", "10");
        assertThat(nodeB.getBean(DurableContexts.class).counters().restoreHits()).isEqualTo(1);
    }

    @Test
    void withoutDurableTheCounterStartsAgainOnAnotherNode() {
        ConfigurableApplicationContext nodeA = start();
        Browser browser = new Browser(port(nodeA));
        for (int i = 1; i <= 5; i++) {
            assertThat(browser.post("/plain").body()).isEqualTo(String.valueOf(i));
        }
        nodeA.close();

        ConfigurableApplicationContext nodeB = start();
        HttpResponse<String> reply = browser.send(browser.request(base(nodeB).resolve("/plain")).POST(java.net.http.HttpRequest.BodyPublishers.noBody()));

        assertThat(reply.body()).as("a node-local bean restarts").isEqualTo("1");
    }

    private ConfigurableApplicationContext start() {
        ConfigurableApplicationContext node = new SpringApplicationBuilder(App.class)
                .properties("server.port=0", "spring.main.banner-mode=off", "synccontext.durable.debounce=50ms")
                .run();
        nodes.add(node);
        return node;
    }

    private static int port(ConfigurableApplicationContext node) {
        return ((WebServerApplicationContext) node).getWebServer().getPort();
    }

    private static URI base(ConfigurableApplicationContext node) {
        return URI.create("http://localhost:" + port(node));
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({ CounterController.class, DurableCounter.class, PlainCounter.class })
    static class App {

        @Bean
        StateStore sharedStateStore() {
            return STORE;
        }

        @Bean
        SessionRepositoryFilter<?> springSessionRepositoryFilter() {
            return new SessionRepositoryFilter<>(SESSIONS);
        }
    }

    /** Kept across nodes. */
    @ContextScoped
    @Durable(name = "counter")
    public static class DurableCounter {
        private int count;

        public int getCount() {
            return count;
        }

        public void setCount(int count) {
            this.count = count;
        }

        public int increment() {
            return ++count;
        }
    }

    /** Node-local: the premise. */
    @ContextScoped
    public static class PlainCounter {
        private int count;

        public int increment() {
            return ++count;
        }
    }

    @RestController
    static class CounterController {
        private final DurableCounter durable;
        private final PlainCounter plain;

        CounterController(DurableCounter durable, PlainCounter plain) {
            this.durable = durable;
            this.plain = plain;
        }

        @OnContext
        @PostMapping("/durable")
        int durable() {
            return durable.increment();
        }

        @OnContext
        @PostMapping("/plain")
        int plain() {
            return plain.increment();
        }
    }
}
