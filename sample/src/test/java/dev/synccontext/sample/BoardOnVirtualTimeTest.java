package dev.synccontext.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.session.SessionContexts;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.test.SyncContextTestKit;
import dev.synccontext.test.spring.AutoConfigureSyncContextTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.synccontext.sample.BoardClient.Reply;

/**
 * The sample on the test kit: the whole application over real HTTP, with every session's context on the
 * kit's deterministic executor and virtual clock ({@link AutoConfigureSyncContextTest}). Queued work runs
 * when the test says so, on the test's thread; the 30-second session idle timeout passes in microseconds.
 * After each test the kit checks that nothing was left queued.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        // The ticker is a real-time @Scheduled task: this test calls it itself.
        "sample.tick-interval=1h",
        "synccontext.session.idle-timeout=30s",
})
@AutoConfigureSyncContextTest
class BoardOnVirtualTimeTest {

    /** Idle eviction looks every eighth of the idle timeout (SessionContexts#startIdleEviction). */
    private static final Duration EVICTION_TICK = Duration.ofSeconds(30).dividedBy(8);

    @LocalServerPort
    int port;

    @Autowired
    SyncContextTestKit kit;

    @Autowired
    SyncContextRegistry registry;

    @Autowired
    SessionContexts sessions;

    @Autowired
    BoardTicker ticker;

    @Test
    void aQueuedTickRunsOnlyWhenTheKitRunsItAndBeforeTheClickQueuedBehindIt() {
        BoardClient visitor = new BoardClient(port);
        Reply first = visitor.get("/api/board"); // an idle context: the callback ran inline, on the request thread
        assertThat(first.json().get("tick").isNull()).isTrue();
        // The durable board's checkpoint is queued only once the debounce passed on the virtual clock.

        ticker.tick(); // the ticker only queues: a post into every live board's context
        assertThat(kit.executor().pending()).as("the tick's drain waits on the kit").isOne();

        // The click queues behind the tick; the request completes once the test runs the queue.
        RendererSyncContext context = open(first.json().get("context").get("name").asString());
        CompletableFuture<Reply> click = CompletableFuture.supplyAsync(() -> visitor.post("/api/counter/increment"));
        await().atMost(Duration.ofSeconds(30)).until(() -> context.queueDepth() == 2);
        kit.runUntilIdle();
        Reply afterClick = click.join();
        assertThat(afterClick.counter()).isOne();
        assertThat(afterClick.json().get("tick").get("sequence").asLong()).as("the tick ran first").isPositive();
        assertThat(afterClick.json().get("context").get("lastThread").asString())
                .as("queued callbacks run on the thread that runs the kit").isEqualTo(Thread.currentThread().getName());
    }

    @Test
    void aSessionIdleForThirtySecondsLosesItsContextAtVirtualThirtySecondsNotAMillisecondBefore() {
        // Start the session on an eviction tick, so that its 30 s end on one too (an earlier test moved time).
        Duration sinceTick = Duration.ofNanos(kit.currentTime().toNanos() % EVICTION_TICK.toNanos());
        if (!sinceTick.isZero()) {
            kit.advanceBy(EVICTION_TICK.minus(sinceTick));
        }
        BoardClient visitor = new BoardClient(port);
        String context = visitor.get("/api/board").json().get("context").get("name").asString();
        assertThat(visitor.post("/api/counter/increment").counter()).isOne();
        assertThat(openContexts()).contains(context);

        long wallStart = System.nanoTime();
        kit.advanceBy(Duration.ofMillis(29_999));
        assertThat(openContexts()).as("at virtual 29.999 s without a request").contains(context);
        kit.advanceBy(Duration.ofMillis(1));
        assertThat(openContexts()).as("at virtual 30 s without a request").doesNotContain(context);
        assertThat(sessions.idleEvictions()).isPositive();

        assertThat(Duration.ofNanos(System.nanoTime() - wallStart)).as("wall time").isLessThan(Duration.ofSeconds(1));
    }

    private RendererSyncContext open(String name) {
        return registry.contexts().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    private List<String> openContexts() {
        return registry.contexts().stream().map(RendererSyncContext::name).toList();
    }
}
