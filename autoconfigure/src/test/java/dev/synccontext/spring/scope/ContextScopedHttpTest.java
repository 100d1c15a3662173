package dev.synccontext.spring.scope;


import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.testing.Browser;
import dev.synccontext.testing.OnRandomPort;
import jakarta.annotation.PreDestroy;
import jakarta.servlet.http.HttpSession;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code @ContextScoped} state over real HTTP sessions: one instance per session's context, destroyed on it. */
@OnRandomPort(classes = ContextScopedHttpTest.App.class)
class ContextScopedHttpTest {

    @Autowired
    Board board;

    @Autowired
    SyncContextRegistry registry;

    @BeforeEach
    void forget() {
        Board.DESTROYED.clear();
    }

    @Test
    void twoSessionsGetTwoInstancesAndEachSessionKeepsItsOwn(Browser alice, Browser bob) {
        String aliceBoard = alice.get("/board").body();
        String bobBoard = bob.get("/board").body();
        assertThat(aliceBoard).isNotEqualTo(bobBoard);
        assertThat(alice.get("/board").body()).isEqualTo(aliceBoard);
        assertThat(bob.get("/board").body()).isEqualTo(bobBoard);
    }

    @Test
    void theRequestThreadAndAQueuedCallbackOnAPoolThreadSeeTheSameInstance(Browser carol) {
        String onRequestThread = carol.get("/board-here").body();
        String[] queued = carol.get("/board-queued").body().split(" on ");
        assertThat(queued[0]).isEqualTo(onRequestThread).isEqualTo(carol.get("/board").body());
        assertThat(queued[1]).as("a posted callback runs on the executor, not the request thread")
                .doesNotContain("http-nio").doesNotContain("exec-");
    }

    @Test
    void concurrentRequestsOfOneSessionLoseNoUpdateOfAPlainField(Browser dave) throws Exception {
        dave.get("/board");
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> all = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                all.add(pool.submit(() -> {
                    for (int i = 0; i < 50; i++) {
                        HttpResponse<String> response = dave.post("/increment");
                        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
                    }
                }));
            }
            for (Future<?> f : all) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(dave.get("/count").body()).isEqualTo("400");
    }

    @Test
    void preDestroyRunsOnceOnTheContextAfterItsLastCallbackWhenTheSessionEnds(Browser erin) {
        String id = erin.get("/board").body();
        assertThat(erin.post("/queue-five-then-logout").statusCode()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(10)).until(() -> !Board.DESTROYED.isEmpty());
        assertThat(Board.DESTROYED).singleElement().satisfies(destroyed -> {
            assertThat(destroyed.id()).isEqualTo(id);
            assertThat(destroyed.count()).as("every callback queued before the session ended ran first").isEqualTo(5);
            assertThat(destroyed.onItsContext()).as("@PreDestroy runs on the released context").isTrue();
        });
    }

    @Test
    void aKeyedContextHasItsOwnInstanceDestroyedWhenTheKeyIsRemoved(Browser stranger) {
        RendererSyncContext keyed = registry.forKey("shared-board");
        String id = keyed.invokeAsync(board::id).join();
        assertThat(keyed.invokeAsync(board::id).join()).isEqualTo(id);
        assertThat(stranger.get("/board").body()).isNotEqualTo(id);
        registry.remove("shared-board");
        await().atMost(Duration.ofSeconds(10)).until(() -> !Board.DESTROYED.isEmpty());
        assertThat(Board.DESTROYED).singleElement().satisfies(destroyed -> assertThat(destroyed.id()).isEqualTo(id));
    }

    @Test
    void aThreadWithNoContextGetsAnErrorThatSaysWhereTheBeanResolves() throws Exception {
        CompletableFuture<Throwable> failure = new CompletableFuture<>();
        Thread plain = new Thread(() -> {
            try {
                board.id();
                failure.complete(null);
            } catch (Throwable t) {
                failure.complete(t);
            }
        }, "a-scheduler");
        plain.start();
        assertThat(failure.get(10, TimeUnit.SECONDS)).isInstanceOf(NoCurrentContextException.class)
                .hasMessageContaining("'a-scheduler', which has no context")
                .hasMessageContaining("invokeAsync");
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({ Board.class, BoardController.class })
    static class App {
    }

    /** Per-context state with no lock. */
    @Component
    @ContextScoped
    static class Board {
        record Destroyed(String id, int count, boolean onItsContext) {
        }

        static final List<Destroyed> DESTROYED = new CopyOnWriteArrayList<>();
        private static final AtomicInteger INSTANCES = new AtomicInteger();

        private final String id = "board-" + INSTANCES.incrementAndGet();
        private int count;
        private RendererSyncContext createdOn;

        String id() {
            return id;
        }

        int increment() {
            return ++count;
        }

        int count() {
            return count;
        }

        @jakarta.annotation.PostConstruct
        void created() {
            createdOn = RendererSyncContext.current().orElse(null);
        }

        @PreDestroy
        void destroyed() {
            RendererSyncContext running = RendererSyncContext.current().orElse(null);
            DESTROYED.add(new Destroyed(id, count, running != null && running.checkAccess()));
        }
    }

    @RestController
    record BoardController(RendererSyncContext context, Board scopedBoard) {

        @GetMapping("/board")
        CompletableFuture<String> board() {
            return context.invokeAsync(scopedBoard::id);
        }

        @GetMapping("/board-here")
        String boardHere() {
            return scopedBoard.id();
        }

        @GetMapping("/board-queued")
        CompletableFuture<String> boardQueued() {
            CompletableFuture<String> answer = new CompletableFuture<>();
            context.post(() -> answer.complete(scopedBoard.id() + " on " + Thread.currentThread().getName()));
            return answer;
        }

        @PostMapping("/increment")
        CompletableFuture<Integer> increment() {
            return context.invokeAsync(scopedBoard::increment);
        }

        @GetMapping("/count")
        CompletableFuture<Integer> count() {
            return context.invokeAsync(scopedBoard::count);
        }

        @PostMapping("/queue-five-then-logout")
        String queueFiveThenLogout(HttpSession session) throws InterruptedException {
            CountDownLatch hold = new CountDownLatch(1);
            context.post(() -> {
                try {
                    hold.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            for (int i = 0; i < 5; i++) {
                context.post(scopedBoard::increment);
            }
            session.invalidate(); // releases the session's context: its beans go after the five increments
            hold.countDown();
            return "ok";
        }
    }
}
