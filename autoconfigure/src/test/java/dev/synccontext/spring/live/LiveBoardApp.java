package dev.synccontext.spring.live;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.scope.ContextScoped;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.testing.Browser;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * The application of the live-channel HTTP tests: a {@code @ContextScoped} board per session that pushes each
 * change to its tabs over the library's SSE transport, and, for the premise test, the naive way (an
 * {@link SseEmitter} written inside the callback, as an application without the library would).
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({LiveBoardApp.Board.class, LiveBoardApp.BoardController.class, LiveBoardApp.Boards.class})
class LiveBoardApp {

    /** About 1 KB per event, so a few thousand changes fill any socket buffer. */
    static final String PAD = "x".repeat(1000);

    /**
     * What one change publishes (and the snapshot): immutable, encoded later on a drain thread. {@code
     * publishedAt} is {@link System#nanoTime()} when it was made, so a client in the same JVM times its delivery
     * ({@link SseScaleLatencyTest}).
     */
    record State(long counter, String pad, long publishedAt) {
        State(long counter, String pad) {
            this(counter, pad, System.nanoTime());
        }
    }

    /** Every board's channel and context, so that tests can look at the server side of each subscriber. */
    @Component
    static class Boards {
        final List<Board> all = new CopyOnWriteArrayList<>();

        /** The board of the new session that {@code tab} opens with a touch: exactly one board more than before. */
        Board newSessionBoard(Browser tab) {
            int before = all.size();
            assertThat(tab.get("/touch").statusCode()).isEqualTo(200);
            assertThat(all).hasSize(before + 1);
            return all.get(before);
        }
    }

    @Component
    @ContextScoped
    static class Board extends CountingBoard {

        final RendererSyncContext context;
        private final List<SseEmitter> naive = new ArrayList<>();
        private volatile int naiveCount;

        Board(LiveChannels channels, Boards boards, RendererSyncContext context, SyncContextRegistry registry) {
            super(channels, PAD);
            this.context = registry.resolve(context);
            boards.all.add(this);
        }

        @Override
        protected State state() {
            return new State(counter, pad);
        }

        @Override
        long change(int times, int size) {
            context.assertAccess();
            return super.change(times, size);
        }

        /** The naive push: every change written to each emitter inside the callback. */
        long changeNaively(int times) throws IOException {
            context.assertAccess();
            for (int i = 0; i < times; i++) {
                counter++;
                for (SseEmitter emitter : naive) {
                    emitter.send(SseEmitter.event().id(Long.toString(counter)).data(state(), MediaType.APPLICATION_JSON));
                }
            }
            return counter;
        }

        void subscribeNaively(SseEmitter emitter) {
            naive.add(emitter);
            naiveCount = naive.size();
        }

        /** Readable from the test's thread. */
        int naiveSubscribers() {
            return naiveCount;
        }
    }

    @RestController
    record BoardController(RendererSyncContext context, Board board, LiveSse sse) {

        @GetMapping("/touch")
        CompletableFuture<Long> touch() {
            return context.invokeAsync(() -> board.change(0, PAD.length()));
        }

        @PostMapping("/change")
        CompletableFuture<Long> change(@RequestParam(defaultValue = "1") int times,
                @RequestParam(defaultValue = "1000") int size) {
            return context.invokeAsync(() -> board.change(times, size));
        }

        @GetMapping(path = "/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
        void events(HttpServletRequest request, HttpServletResponse response,
                @RequestParam(defaultValue = "") String tab) {
            sse.subscribe(request, response, context, board::live).thenAccept(subscriber -> board.tab(tab, subscriber));
        }

        @GetMapping(path = "/naive-events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
        SseEmitter naiveEvents() {
            SseEmitter emitter = new SseEmitter(0L);
            context.invokeAsync(() -> board.subscribeNaively(emitter)).join();
            return emitter;
        }

        @PostMapping("/naive-change")
        CompletableFuture<Long> naiveChange(@RequestParam(defaultValue = "1") int times) {
            return context.invokeAsync(() -> board.changeNaively(times));
        }
    }
}
