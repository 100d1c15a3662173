package dev.synccontext.spring.websocket;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.handler.OnContext;
import dev.synccontext.spring.scope.ContextScoped;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.testing.OnRandomPort;
import jakarta.annotation.PreDestroy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.messaging.handler.annotation.DestinationVariable;
import org.springframework.messaging.handler.annotation.MessageExceptionHandler;
import org.springframework.messaging.handler.annotation.MessageMapping;
import org.springframework.messaging.handler.annotation.SendTo;
import org.springframework.messaging.simp.annotation.SendToUser;
import org.springframework.messaging.simp.annotation.SubscribeMapping;
import org.springframework.messaging.simp.config.MessageBrokerRegistry;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.stereotype.Component;
import org.springframework.stereotype.Controller;

/**
 * {@code @OnContext} STOMP methods over a real socket, with Spring's default inbound pool: their bodies run on
 * the STOMP session's context, in the order the socket received the frames, with Spring's return value and
 * exception handling intact; the session's end releases the context after the last frame's callback.
 *
 * <p>The premise ({@link #withoutOnContextTheInboundPoolReordersOrOverlapsOneSessionsFrames}): the same load on
 * an unannotated method shows frames of one session out of order or inside the handler at once.
 */
@OnRandomPort(classes = OnContextStompTest.App.class)
@ExtendWith(LocalStomp.Resolver.class)
class OnContextStompTest {

    static final int SESSIONS = 8;
    static final int FRAMES = 1000;
    static final int REPLIES = 200;
    static final Duration WAIT = Duration.ofSeconds(60);

    private static final AtomicInteger RUNS = new AtomicInteger();

    /** Prefix of this test's labels, so state of an earlier test (or repetition) never counts. */
    private final String run = "run" + RUNS.incrementAndGet() + "-";

    @LocalServerPort
    int port;

    @Autowired
    Sequences sequences;

    @Autowired
    SyncContextRegistry registry;

    private LocalStomp stomp;

    @BeforeEach
    void client(LocalStomp stomp) {
        this.stomp = stomp;
    }

    @Test
    void eightSessionsSendingAThousandFramesEachAreHandledOnTheirContextsInArrivalOrder() throws Exception {
        List<Sequence> seen = sendSequences("ordered");
        for (int s = 0; s < SESSIONS; s++) {
            Sequence sequence = seen.get(s);
            assertThat(sequence.received).as("session %d's sequence numbers, as its handler saw them", s)
                    .containsExactlyElementsOf(IntStream.range(0, FRAMES).boxed().toList());
            assertThat(sequence.overlaps).as("frames of session %d inside the handler at once", s).hasValue(0);
            assertThat(sequence.offContext).as("bodies not on session %d's context", s).hasValue(0);
            assertThat(sequence.contexts).as("session %d's contexts", s).hasSize(1);
            assertThat(sequence.contexts.get(0).name()).startsWith("websocket-");
        }
        assertThat(seen.stream().map(q -> q.contexts.get(0)).distinct()).as("one context per session")
                .hasSize(SESSIONS);
    }

    @Test
    void withoutOnContextTheInboundPoolReordersOrOverlapsOneSessionsFrames() throws Exception {
        List<Sequence> seen = sendSequences("unordered");
        int inversions = seen.stream().mapToInt(q -> q.inversions.get()).sum();
        int overlaps = seen.stream().mapToInt(q -> q.overlaps.get()).sum();
        System.out.printf("[stomp] without @OnContext, %d sessions x %d frames: %d inversions, %d overlaps%n",
                SESSIONS, FRAMES, inversions, overlaps);
        assertThat(inversions + overlaps).as("frames of one session that Spring's inbound pool handled out of order"
                + " or at the same time (else this load proves nothing about @OnContext)").isPositive();
        assertThat(seen).allSatisfy(q -> assertThat(q.received).hasSize(FRAMES));
    }

    @Test
    void returnValuesReachSendToAndSendToUserInOrderAndFailuresTheExceptionHandler() throws Exception {
        StompSession session = connect();
        try {
            BlockingQueue<String> topic = subscribe(session, "/topic/echo");
            BlockingQueue<String> user = subscribe(session, "/user/queue/echo");
            BlockingQueue<String> errors = subscribe(session, "/user/queue/errors");
            // A subscription takes effect when the broker has handled it, on Spring's pool: probe until it has.
            awaitSubscribed(session, "/app/echo", topic);
            awaitSubscribed(session, "/app/echo-user", user);
            for (int i = 0; i < REPLIES; i++) {
                session.send("/app/echo", String.valueOf(i));
                session.send("/app/echo-user", String.valueOf(i));
            }
            session.send("/app/fail", "boom");
            List<String> toTopic = take(topic, REPLIES);
            List<String> toUser = take(user, REPLIES);
            String context = toTopic.get(0).substring(toTopic.get(0).indexOf(" on ") + 4);
            assertThat(context).startsWith("websocket-");
            assertThat(toTopic).as("@SendTo, in the order sent").containsExactlyElementsOf(
                    IntStream.range(0, REPLIES).mapToObj(i -> i + " on " + context).toList());
            assertThat(toUser).as("@SendToUser, in the order sent").containsExactlyElementsOf(
                    IntStream.range(0, REPLIES).mapToObj(i -> i + " on " + context).toList());
            assertThat(errors.poll(WAIT.toSeconds(), SECONDS)).as("@MessageExceptionHandler's reply")
                    .isEqualTo("failed: boom on " + context);

            BlockingQueue<String> snapshot = subscribe(session, "/app/snapshot");
            assertThat(snapshot.poll(WAIT.toSeconds(), SECONDS)).as("@SubscribeMapping's reply to the subscriber")
                    .isEqualTo("snapshot on " + context);
        } finally {
            session.disconnect();
        }
    }

    @Test
    void aDisconnectReleasesTheContextAndDestroysItsBeansOnceAfterTheLastFrame() throws Exception {
        List<StompSession> sessions = new ArrayList<>();
        for (int s = 0; s < 2; s++) {
            sessions.add(connect());
        }
        for (int i = 0; i < REPLIES; i++) {
            for (int s = 0; s < 2; s++) {
                sessions.get(s).send("/app/journal/" + run + "clean-" + s, "x");
            }
        }
        sessions.forEach(StompSession::disconnect); // right behind the frames: some are still queued
        for (int s = 0; s < 2; s++) {
            Journal.Destroyed destroyed = awaitDestroyed(run + "clean-" + s);
            assertThat(destroyed.entries()).as("frames whose callback ran before @PreDestroy").isEqualTo(REPLIES);
            assertReleasedOnce(destroyed, run + "clean-" + s);
        }
    }

    @Test
    void aKilledSocketReleasesTheContextAndDestroysItsBeansOnceAfterTheLastFrame() throws Exception {
        StompSessionContextTest.RawStomp raw = StompSessionContextTest.RawStomp.connect(port);
        String label = run + "killed";
        for (int i = 0; i < REPLIES; i++) {
            raw.send("/app/journal/" + label);
        }
        await().atMost(WAIT).until(() -> sequences.journalCalls.containsKey(label));
        raw.kill(); // no DISCONNECT frame, no close frame: the TCP connection just goes away

        Journal.Destroyed destroyed = awaitDestroyed(label);
        assertThat(destroyed.entries()).as("@PreDestroy saw every frame whose callback ran")
                .isEqualTo(sequences.journalCalls.get(label).get());
        assertReleasedOnce(destroyed, label);
    }

    // ---------------------------------------------------------------- helpers

    /** {@value #SESSIONS} sessions, each sending 0..{@value #FRAMES}-1 back to back; their sequences once all arrived. */
    private List<Sequence> sendSequences(String mapping) throws Exception {
        List<StompSession> sessions = new ArrayList<>();
        for (int s = 0; s < SESSIONS; s++) {
            sessions.add(connect());
        }
        try {
            TallyingWebSocketTest.runConcurrently(SESSIONS, s -> {
                for (int i = 0; i < FRAMES; i++) {
                    sessions.get(s).send("/app/" + mapping + "/" + run + s, String.valueOf(i));
                }
            });
            List<Sequence> seen = new ArrayList<>();
            for (int s = 0; s < SESSIONS; s++) {
                String label = run + s;
                await().atMost(WAIT).until(() -> sequences.sequences.containsKey(label)
                        && sequences.sequences.get(label).received.size() == FRAMES);
                seen.add(sequences.sequences.get(label));
            }
            return seen;
        } finally {
            sessions.forEach(StompSession::disconnect);
        }
    }

    private void assertReleasedOnce(Journal.Destroyed destroyed, String label) {
        assertThat(destroyed.onItsContext()).as("@PreDestroy ran on the session's context").isTrue();
        assertThat(sequences.lateJournalCalls.get(label)).as("frames handled after @PreDestroy").isNull();
        RendererSyncContext context = destroyed.context();
        assertThat(context.isClosed()).as("the released context accepts nothing new").isTrue();
        assertThat(registry.contexts()).as("the registry no longer tracks it").doesNotContain(context);
        assertThat(Journal.DESTROYED.stream().filter(d -> d.label().equals(label))).as("@PreDestroy calls")
                .hasSize(1);
    }

    private static Journal.Destroyed awaitDestroyed(String label) {
        await().atMost(WAIT).until(() -> Journal.DESTROYED.stream().anyMatch(d -> d.label().equals(label)));
        return Journal.DESTROYED.stream().filter(d -> d.label().equals(label)).findFirst().orElseThrow();
    }

    private StompSession connect() throws Exception {
        return stomp.connect("/stomp");
    }

    private static BlockingQueue<String> subscribe(StompSession session, String destination) {
        return StompClients.subscribe(session, destination);
    }

    private static void awaitSubscribed(StompSession session, String destination, BlockingQueue<String> replies) {
        await().atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(() -> {
            session.send(destination, "probe");
            return replies.poll(50, java.util.concurrent.TimeUnit.MILLISECONDS) != null;
        });
    }

    /** The next {@code count} replies that are not probes (late probe replies all come before them: in order). */
    private static List<String> take(BlockingQueue<String> replies, int count) throws InterruptedException {
        List<String> taken = new ArrayList<>();
        while (taken.size() < count) {
            String reply = replies.poll(WAIT.toSeconds(), SECONDS);
            assertThat(reply).as("reply %d of %d", taken.size() + 1, count).isNotNull();
            if (!reply.startsWith("probe")) {
                taken.add(reply);
            }
        }
        return taken;
    }

    // ---------------------------------------------------------------- the application

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({ OrderedBroker.class, Sequences.class, Replies.class, Journal.class })
    static class App {
    }

    /**
     * The STOMP broker with {@code /queue} for {@code @SendToUser} and Spring's ordered publishing, so that what
     * the client receives is the order the context sent it in (Spring's outbound pool reorders otherwise).
     */
    static class OrderedBroker extends StompBroker {
        @Override
        protected String[] brokerDestinations() {
            return new String[] { "/topic", "/queue" };
        }

        @Override
        public void configureMessageBroker(MessageBrokerRegistry registry) {
            super.configureMessageBroker(registry);
            registry.setPreservePublishOrder(true);
        }
    }

    /** What one session's handler saw. */
    static final class Sequence {
        final List<Integer> received = new CopyOnWriteArrayList<>();
        final List<RendererSyncContext> contexts = new CopyOnWriteArrayList<>();
        final AtomicInteger overlaps = new AtomicInteger();
        final AtomicInteger inversions = new AtomicInteger();
        final AtomicInteger offContext = new AtomicInteger();
        private final AtomicInteger inside = new AtomicInteger();
        private final AtomicInteger highest = new AtomicInteger(-1);

        void record(int number, RendererSyncContext session) {
            if (inside.incrementAndGet() != 1) {
                overlaps.incrementAndGet();
            }
            if (RendererSyncContext.current().orElse(null) != session) {
                offContext.incrementAndGet();
            }
            if (!contexts.contains(session)) {
                contexts.add(session);
            }
            if (highest.getAndAccumulate(number, Math::max) > number) {
                inversions.incrementAndGet();
            }
            received.add(number);
            for (int i = 0; i < 500; i++) {
                Thread.onSpinWait(); // a handler that does some work: widens the window an overlap needs
            }
            inside.decrementAndGet();
        }
    }

    @Controller
    static class Sequences {
        final Map<String, Sequence> sequences = new ConcurrentHashMap<>();
        final Map<String, AtomicInteger> journalCalls = new ConcurrentHashMap<>();
        final Map<String, AtomicInteger> lateJournalCalls = new ConcurrentHashMap<>();
        private final Journal journal;

        Sequences(Journal journal) {
            this.journal = journal;
        }

        @OnContext
        @MessageMapping("/ordered/{label}")
        void ordered(@DestinationVariable String label, String number, RendererSyncContext session) {
            sequences.computeIfAbsent(label, k -> new Sequence()).record(Integer.parseInt(number), session);
        }

        /** The same body without the annotation: Spring's inbound pool runs it. */
        @MessageMapping("/unordered/{label}")
        void unordered(@DestinationVariable String label, String number, RendererSyncContext session) {
            sequences.computeIfAbsent(label, k -> new Sequence()).record(Integer.parseInt(number), session);
        }

        @OnContext
        @MessageMapping("/journal/{label}")
        void journal(@DestinationVariable String label) {
            try {
                journal.add(label); // a @ContextScoped bean with a plain int, no lock
            } catch (RuntimeException afterDestroy) { // the bean is refused once its context destroyed it
                lateJournalCalls.computeIfAbsent(label, k -> new AtomicInteger()).incrementAndGet();
                throw afterDestroy;
            }
            journalCalls.computeIfAbsent(label, k -> new AtomicInteger()).incrementAndGet();
        }
    }

    /** {@code @OnContext} on the class: every handler method of it. */
    @OnContext
    @Controller
    static class Replies {

        @MessageMapping("/echo")
        @SendTo("/topic/echo")
        String echo(String number) {
            return number + " on " + currentName();
        }

        @MessageMapping("/echo-user")
        @SendToUser("/queue/echo")
        String echoUser(String number) {
            return number + " on " + currentName();
        }

        @MessageMapping("/fail")
        void fail(String why) {
            throw new IllegalArgumentException(why);
        }

        @MessageExceptionHandler
        @SendToUser("/queue/errors")
        String failed(IllegalArgumentException failure) {
            return "failed: " + failure.getMessage() + " on " + currentName();
        }

        @SubscribeMapping("/snapshot")
        String snapshot() {
            return "snapshot on " + currentName();
        }

        private static String currentName() {
            return RendererSyncContext.current().map(RendererSyncContext::name).orElse("no context");
        }
    }

    /** One per STOMP session's context: a plain count and no lock. */
    @Component
    @ContextScoped
    static class Journal {
        record Destroyed(String label, int entries, RendererSyncContext context, boolean onItsContext) {
        }

        static final List<Destroyed> DESTROYED = new CopyOnWriteArrayList<>();

        private String label = "";
        private int entries;
        private RendererSyncContext context;

        void add(String label) {
            this.label = label;
            this.context = RendererSyncContext.current().orElseThrow();
            entries++;
        }

        @PreDestroy
        void destroyed() {
            RendererSyncContext running = RendererSyncContext.current().orElse(null);
            DESTROYED.add(new Destroyed(label, entries, context,
                    running != null && running == context && running.checkAccess()));
        }
    }
}
