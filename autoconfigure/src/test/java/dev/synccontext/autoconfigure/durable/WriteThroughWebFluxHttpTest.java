package dev.synccontext.autoconfigure.durable;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.ContextClock;
import dev.synccontext.autoconfigure.durable.WriteThroughHttpTest.SwitchableStore;
import dev.synccontext.spring.durable.InMemoryStateStore;
import dev.synccontext.spring.handler.OnContext;
import dev.synccontext.testing.Browser;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * {@code synccontext.durable.write-through=true} for WebFlux {@code @OnContext} handlers over real HTTP (Netty, one
 * node, the in-memory store behind {@link SwitchableStore}): the body's changes are accepted by the store before
 * WebFlux subscribes to the publisher it returned, and a refused write is answered 503, never success. The debounce
 * is an hour, so only write-through can have written anything while a test runs.
 */
class WriteThroughWebFluxHttpTest {

    // A node per test, never two at once: closing a Netty server disposes Reactor Netty's shared event loops, which
    // another server of the same JVM still uses.
    private final SwitchableStore store = new SwitchableStore(new InMemoryStateStore(ContextClock.system()));
    private ConfigurableApplicationContext node;

    @AfterEach
    void stopNode() {
        if (node != null) {
            node.close();
        }
    }

    @Test
    void eachAnswerIsGivenOnlyAfterItsSnapshotWasAccepted() {
        node = start(true, store);
        Browser browser = browser(node);
        int before = store.acceptedCount();
        for (int i = 1; i <= 5; i++) {
            HttpResponse<String> reply = browser.post("/counter");
            assertThat(reply.body()).as("status %s", reply.statusCode()).isEqualTo(String.valueOf(i));
            assertThat(store.lastAccepted()).as("the snapshot accepted before answer %d was given", i)
                    .contains("\"count\":" + i);
        }
        assertThat(store.acceptedCount() - before).as("one write per changing answer").isEqualTo(5);
    }

    @Test
    void withoutWriteThroughTheAnswerComesBeforeTheDebouncedWrite() {
        node = start(false, store);
        Browser browser = browser(node);
        for (int i = 1; i <= 3; i++) {
            assertThat(browser.post("/counter").body()).isEqualTo(String.valueOf(i));
        }
        assertThat(store.acceptedCount()).as("the premise: answers shown, nothing stored yet (debounce 1 h)").isZero();
    }

    @Test
    void aRefusedOrUnconfirmedWriteIsAnswered503AndTheRetryContinuesFromTheStoredState() {
        node = start(true, store);
        Browser browser = browser(node);
        WriteThroughHttpTest.assertARefusedWriteIsAnswered503AndNotKept(browser, store);

        store.fail = true;
        HttpResponse<String> failed = browser.post("/counter");
        assertThat(failed.statusCode()).as(failed.body()).isEqualTo(503);
        store.fail = false;
        assertThat(browser.post("/counter").body()).isEqualTo("4");
        assertThat(store.lastAccepted()).contains("\"count\":4");
    }

    private static ConfigurableApplicationContext start(boolean writeThrough, SwitchableStore store) {
        return new SpringApplicationBuilder(App.class)
                .initializers(context -> context.getBeanFactory().registerSingleton("switchableStore", store))
                .properties("server.port=0", "spring.main.banner-mode=off", "spring.main.web-application-type=reactive",
                        "synccontext.durable.debounce=1h", "synccontext.durable.write-through=" + writeThrough)
                .run();
    }

    private static Browser browser(ConfigurableApplicationContext node) {
        return new Browser(((WebServerApplicationContext) node).getWebServer().getPort());
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({ CounterController.class, DurableApp.Counter.class })
    static class App {
    }

    @RestController
    static class CounterController {
        private final DurableApp.Counter counter;

        CounterController(DurableApp.Counter counter) {
            this.counter = counter;
        }

        @OnContext
        @PostMapping("/counter")
        Mono<String> increment() {
            return Mono.just(String.valueOf(counter.increment()));
        }
    }
}
