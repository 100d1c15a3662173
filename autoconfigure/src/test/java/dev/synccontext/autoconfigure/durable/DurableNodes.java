package dev.synccontext.autoconfigure.durable;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.ContextClock;
import dev.synccontext.spring.durable.InMemoryStateStore;
import dev.synccontext.spring.durable.StateStore;
import dev.synccontext.testing.Browser;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.session.MapSessionRepository;

/**
 * Nodes of one application ({@link DurableApp}: Spring Boot on real Tomcat, in this JVM) that share one state
 * store and one Spring Session repository, as instances behind a balancer share Redis. A {@link Browser} is one
 * session: its cookie goes to whichever node {@link #post} names. {@link #close} stops the nodes still running.
 */
final class DurableNodes implements AutoCloseable {

    private final StateStore store;
    private final MapSessionRepository sessions = new MapSessionRepository(new ConcurrentHashMap<>());
    private final List<ConfigurableApplicationContext> nodes = new ArrayList<>();

    /** Nodes on a fresh in-memory store. */
    DurableNodes() {
        this(new InMemoryStateStore(ContextClock.system()));
    }

    /** Nodes on {@code store} (a decorator that records or refuses writes, for instance). */
    DurableNodes(StateStore store) {
        this.store = store;
    }

    StateStore store() {
        return store;
    }

    /** Starts a node on a free port with {@code properties} (e.g. {@code synccontext.durable.debounce=50ms}). */
    ConfigurableApplicationContext start(String... properties) {
        List<String> all = new ArrayList<>(List.of("server.port=0", "spring.main.banner-mode=off"));
        all.addAll(List.of(properties));
        ConfigurableApplicationContext node = new SpringApplicationBuilder(DurableApp.class)
                .initializers(context -> {
                    context.getBeanFactory().registerSingleton("sharedStateStore", store);
                    context.getBeanFactory().registerSingleton("sharedSessions", sessions);
                })
                .properties(all.toArray(String[]::new)).run();
        nodes.add(node);
        return node;
    }

    @Override
    public void close() {
        nodes.forEach(ConfigurableApplicationContext::close); // closing a closed node does nothing
        nodes.clear();
    }

    static int port(ConfigurableApplicationContext node) {
        return ((WebServerApplicationContext) node).getWebServer().getPort();
    }

    static URI base(ConfigurableApplicationContext node) {
        return URI.create("http://localhost:" + port(node));
    }

    /** A new session whose requests go to {@code node} unless {@link #post} sends them elsewhere. */
    static Browser browser(ConfigurableApplicationContext node) {
        return new Browser(port(node));
    }

    /** {@code browser}'s session POSTs {@code path} to {@code node}; the answer must be 200, its body returned. */
    static String post(Browser browser, ConfigurableApplicationContext node, String path) {
        HttpResponse<String> reply = browser.send(browser.request(base(node).resolve(path))
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(reply.statusCode()).as(reply.body()).isEqualTo(200);
        return reply.body();
    }
}
