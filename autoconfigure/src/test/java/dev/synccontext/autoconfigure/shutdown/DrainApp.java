package dev.synccontext.autoconfigure.shutdown;

import dev.synccontext.spring.shutdown.ShutdownCompletedEvent;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.live.LiveChannels;
import dev.synccontext.spring.live.LiveSse;
import dev.synccontext.spring.live.ScopedBoard;
import dev.synccontext.spring.live.LiveStomp;
import dev.synccontext.spring.scope.ContextScoped;
import dev.synccontext.spring.websocket.StompBroker;
import dev.synccontext.live.LiveChannel;
import dev.synccontext.registry.ShutdownDrain;
import dev.synccontext.registry.SyncContextRegistry;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.annotation.Import;
import org.springframework.context.event.EventListener;
import org.springframework.http.MediaType;
import org.springframework.messaging.handler.annotation.MessageMapping;
import org.springframework.messaging.simp.SimpMessageHeaderAccessor;
import org.springframework.stereotype.Component;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The application {@link ShutdownDrainProcessTest} starts as a separate JVM: a {@code @ContextScoped} board
 * per HTTP session pushing over SSE ({@code GET /events}), one keyed context's channel for STOMP sessions
 * ({@code /app/live-subscribe}, delivered on {@code /user/topic/board}), and a load of callbacks on four keyed
 * contexts that runs until the drain ends, each one counted where it is submitted and where it runs. Prints
 * (on stdout, prefixed {@value #OUT}) its port, the readiness change, the drain's report and its own counts.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({DrainApp.Board.class, DrainApp.Events.class, DrainApp.StompBoard.class, DrainApp.Load.class, DrainApp.OrderedStomp.class})
public class DrainApp {

    static final String OUT = "DRAIN-APP ";

    public static void main(String[] args) {
        SpringApplication.run(DrainApp.class, args);
    }

    static void print(String line) {
        System.out.println(OUT + line);
        System.out.flush();
    }

    /**
     * The tests' STOMP broker, receiving each session's frames in order: its SUBSCRIBE reaches the broker before
     * its SEND reaches {@link StompBoard}, so the snapshot is never sent before the subscription exists.
     */
    static class OrderedStomp extends StompBroker {
        @Override
        public void registerStompEndpoints(org.springframework.web.socket.config.annotation.StompEndpointRegistry registry) {
            super.registerStompEndpoints(registry);
            registry.setPreserveReceiveOrder(true);
        }
    }

    @Component
    @ContextScoped
    static class Board extends ScopedBoard {

        Board(LiveChannels channels) {
            super(channels, "board");
        }

        @Override
        protected String state() {
            return "snapshot";
        }
    }

    @RestController
    record Events(RendererSyncContext context, Board board, LiveSse sse) {

        @GetMapping(path = "/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
        void events(HttpServletRequest request, HttpServletResponse response) {
            sse.subscribe(request, response, context, board::live);
        }
    }

    @Controller
    static class StompBoard {

        private final RendererSyncContext context;
        private final LiveChannel live;
        private final LiveStomp stomp;

        StompBoard(SyncContextRegistry registry, LiveChannels channels, LiveStomp stomp) {
            this.context = registry.forKey("stomp-board");
            this.live = channels.builder("stomp-board", "websocket").build(() -> "snapshot");
            this.stomp = stomp;
        }

        @MessageMapping("/live-subscribe")
        void subscribe(SimpMessageHeaderAccessor headers) {
            String sessionId = headers.getSessionId();
            context.invokeAsync(() -> live.subscribe(stomp.toSession(sessionId, "/topic/board", null)));
        }
    }

    /** Callbacks submitted without a pause until the drain is over: some of them meet its refusal. */
    @Component
    static class Load {

        private final List<RendererSyncContext> contexts = new ArrayList<>();
        private final List<Thread> threads = new ArrayList<>();
        private final LongAdder submitted = new LongAdder();
        private final LongAdder ran = new LongAdder();
        private final LongAdder refused = new LongAdder();
        private final LongAdder cancelled = new LongAdder();
        private final LongAdder failed = new LongAdder();
        private final LongAdder answered = new LongAdder();
        private volatile boolean stop;

        private final LiveChannels channels;
        private final List<Integer> openEvery100ms = new java.util.concurrent.CopyOnWriteArrayList<>();

        Load(SyncContextRegistry registry, LiveChannels channels) {
            this.channels = channels;
            for (int i = 0; i < 4; i++) {
                contexts.add(registry.forKey("load-" + i));
            }
        }

        @EventListener
        void started(WebServerInitializedEvent event) {
            for (int t = 0; t < 2; t++) {
                Thread thread = new Thread(this::submit, "load-" + t);
                thread.setDaemon(true);
                threads.add(thread);
                thread.start();
            }
            print("port=" + event.getWebServer().getPort());
        }

        private void submit() {
            while (!stop) {
                for (RendererSyncContext context : contexts) {
                    submitted.increment();
                    try {
                        context.invokeAsync(ran::increment).whenComplete((ok, failure) -> classify(failure));
                    } catch (RejectedExecutionException refusedAtOnce) {
                        refused.increment();
                        answered.increment();
                    }
                }
                LockSupport.parkNanos(1_000_000); // a steady load, not a spin that starves the 2 cores
            }
        }

        private void classify(Throwable failure) {
            Throwable cause = failure instanceof CompletionException wrapped && wrapped.getCause() != null
                    ? wrapped.getCause() : failure;
            if (cause == null) {
                // ran: counted inside the callback
            } else if (cause instanceof RejectedExecutionException) {
                refused.increment();
            } else if (cause instanceof CancellationException) {
                cancelled.increment();
            } else {
                failed.increment();
            }
            answered.increment();
        }

        @EventListener
        void readiness(AvailabilityChangeEvent<ReadinessState> event) {
            print("readiness=" + event.getState());
            if (event.getState() == ReadinessState.REFUSING_TRAFFIC && openEvery100ms.isEmpty()) {
                Thread sampler = new Thread(() -> {
                    // the server's side of the pace: how many subscribers are still open, every 100 ms
                    while (!stop) {
                        openEvery100ms.add(channels.group().subscribers().size());
                        LockSupport.parkNanos(100_000_000L);
                    }
                }, "open-sampler");
                sampler.setDaemon(true);
                sampler.start();
            }
        }

        @EventListener
        void drained(ShutdownCompletedEvent event) throws InterruptedException {
            stop = true;
            for (Thread thread : threads) {
                thread.join(TimeUnit.SECONDS.toMillis(5));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (answered.sum() < submitted.sum() && System.nanoTime() < deadline) {
                Thread.onSpinWait(); // every future is complete by now; this only covers the last whenComplete
            }
            print("open subscribers every 100 ms " + openEvery100ms);
            ShutdownDrain.Report r = event.report();
            print("report contexts=" + r.contexts() + " forced=" + r.forced() + " ran=" + r.ran() + " refused="
                    + r.refused() + " cancelled=" + r.cancelled() + " refusedCreations=" + r.refusedCreations()
                    + " goneAway=" + r.goneAway() + " goneAwayAtDeadline=" + r.goneAwayAtDeadline()
                    + " callbacksMillis=" + r.callbacks().toMillis() + " tookMillis=" + r.took().toMillis());
            print("load submitted=" + submitted.sum() + " answered=" + answered.sum() + " ran=" + ran.sum()
                    + " refused=" + refused.sum() + " cancelled=" + cancelled.sum() + " failed=" + failed.sum());
        }
    }
}
