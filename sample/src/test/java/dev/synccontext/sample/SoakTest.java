package dev.synccontext.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.net.http.HttpResponse.BodySubscribers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import dev.synccontext.CallbackOutcome;
import dev.synccontext.CallbackPath;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.statistics.SyncContextStatistics;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;
import org.apache.catalina.Context;
import org.apache.catalina.Manager;
import org.apache.catalina.session.ManagerBase;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.servlet.context.ServletWebServerApplicationContext;

/**
 * A bounded soak: {@value #DEFAULT_SESSIONS} HTTP sessions of the sample over loopback, driven
 * for a fixed time by {@value #DEFAULT_CLIENTS} client threads (clicks, board reads, list changes,
 * slow quotes, several threads on one session at once) while some sessions hold event streams. Then:
 * zero 5xx and no unexpected answer; every session's counter equals its acknowledged clicks, which were
 * answered with exactly 1..n; every stream saw versions only grow and reached the final counter; after
 * most sessions are ended ({@code DELETE /api/session}) and a few expire (Tomcat's own expiry sweep,
 * after setting those sessions' inactivity limit to 1 s), every stream got {@code ended}, and live
 * contexts, boards, Tomcat sessions and the heap are back at their baseline.
 *
 * <p>Sizes by system property: {@code soak.sessions}, {@code soak.seconds} (default
 * {@value #DEFAULT_SECONDS}), {@code soak.clients}, {@code soak.streams} (sessions with an event
 * stream; one in five of them holds two), {@code soak.expiring}, {@code soak.seed}. For a long run by
 * hand: {@code mvn -B -ntp verify -pl sample -Dtest=SoakTest -Dsoak.seconds=600}.
 */
@ReliabilityServerTest
@Tag("system")
class SoakTest {

    static final int DEFAULT_SESSIONS = 1_000;
    static final int DEFAULT_CLIENTS = 32;
    static final int DEFAULT_SECONDS = 30;

    static final int SESSIONS = Integer.getInteger("soak.sessions", DEFAULT_SESSIONS);
    static final int CLIENTS = Integer.getInteger("soak.clients", DEFAULT_CLIENTS);
    static final Duration DURATION = Duration.ofSeconds(Long.getLong("soak.seconds", DEFAULT_SECONDS));
    static final int STREAMS = Integer.getInteger("soak.streams", Math.min(100, SESSIONS));
    static final int EXPIRING = Integer.getInteger("soak.expiring", Math.min(50, SESSIONS));
    static final long SEED = Long.getLong("soak.seed", System.nanoTime());

    /** Objects each session owns: none may outlive the sessions. */
    private static final List<String> PER_SESSION_TYPES = List.of("dev.synccontext.sample.Board",
            "dev.synccontext.SyncContext", "org.apache.catalina.session.StandardSession",
            "dev.synccontext.live.LiveChannel", "dev.synccontext.live.LiveSubscriber");

    /**
     * What the heap may keep after the sessions: Tomcat's pooled processors and buffers and the JDK
     * client's connection pool ({@code byte[]}, {@code char[]}, {@code ByteChunk}: seen 2-5 MB on
     * this VM). Per-session objects are counted exactly ({@link #PER_SESSION_TYPES}).
     */
    private static final long HEAP_SLACK = 8L << 20;

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Set<Integer> OK = Set.of(200);
    private static final Set<Integer> OK_OR_FULL = Set.of(200, 409);
    private static final Set<Integer> OK_OR_GONE_ITEM = Set.of(200, 404);

    @LocalServerPort
    int port;

    @Autowired
    SyncContextRegistry registry;

    @Autowired
    LiveBoards liveBoards;

    @Autowired
    ServletWebServerApplicationContext web;

    private HttpClient http;
    /** The soak's sessions while they live (a field, so that dropping it lets them be collected). */
    private volatile List<SoakSession> live;
    private final Map<String, LongAdder> answers = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<String> unexpected = new ConcurrentLinkedQueue<>();
    private final LongAdder serverErrors = new LongAdder();
    /** Request latencies per call, in microseconds (HdrHistogram, on the class path through Micrometer). */
    private final Map<String, Histogram> latency = new ConcurrentHashMap<>();
    private static final long MAX_LATENCY_MICROS = 60_000_000;

    @Test
    void thousandSessionsUnderClicksAndStreamsLoseNothingAndLeaveNothingBehind() throws Exception {
        System.out.printf("SOAK seed=%d (replay: -Dsoak.seed=%d) sessions=%d clients=%d seconds=%d streams=%d"
                + " expiring=%d%n", SEED, SEED, SESSIONS, CLIENTS, DURATION.toSeconds(), STREAMS, EXPIRING);
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        for (String op : List.of("increment", "board", "add-item", "toggle-item", "remove-item", "quote")) {
            latency.put(op, newLatencyHistogram());
        }
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        try {
            // Warm-up: JIT, connection pools, Tomcat's caches, on throwaway sessions, so the baseline has them.
            // Tomcat keeps processors and their buffers for as many connections as were ever open at once
            // (about 10 MB for ~150), so the warm-up opens as many streams as the soak will.
            List<SoakSession> warm = start(clients, Math.max(64, STREAMS), STREAMS);
            load(clients, warm, Duration.ofSeconds(3), SEED - 1);
            end(clients, warm);
            await().atMost(WAIT).until(() -> warm.stream().allMatch(s -> s.streams.stream().allMatch(st -> st.closed)));
            answers.clear();
            resetLatency();

            int baseContexts = registry.contexts().size();
            int baseBoards = liveBoards.size();
            int baseTomcatSessions = manager().getActiveSessions();
            SessionTotals baseTotals = sessionTotals();
            // The histograms first: the test's own maps (an entry per loaded class) belong to the baseline.
            Map<String, Long> baseHistogram = HeapHistogram.take();
            Map<String, Long> baseInstances = HeapHistogram.instances();
            long baseHeap = heapAfterGc();

            List<SoakSession> sessions = start(clients, SESSIONS, STREAMS);
            long started = System.nanoTime();
            long requests = load(clients, sessions, DURATION, SEED);
            double seconds = (System.nanoTime() - started) / 1e9;

            // ---- nothing lost, in order ----
            List<String> wrong = verifyCounters(clients, sessions);
            live = sessions;
            await().atMost(WAIT).pollDelay(Duration.ZERO).until(() -> live.stream().allMatch(session -> session.streams
                    .stream().allMatch(stream -> stream.lastCounter == session.acknowledged() || stream.closed)));
            for (SoakSession session : sessions) {
                for (SoakSession.Stream stream : session.streams) {
                    if (stream.lastCounter != session.acknowledged()) {
                        wrong.add("session " + session.index + ": a stream ended at counter " + stream.lastCounter
                                + ", acknowledged " + session.acknowledged());
                    }
                    if (stream.disorder != null) {
                        wrong.add("session " + session.index + ": a stream saw " + stream.disorder);
                    }
                }
            }
            int liveContexts = registry.contexts().size() - baseContexts;
            long liveHeap = heapAfterGc();
            // As text at once: the map must not be reachable when the heap after the sessions is measured.
            String liveGrowth = HeapHistogram.growth(baseHistogram, HeapHistogram.take(), 12);
            long streams = sessions.stream().mapToLong(s -> s.streams.size()).sum();
            long streamEvents = sessions.stream().flatMap(s -> s.streams.stream()).mapToLong(st -> st.boards).sum();
            long clicks = sessions.stream().mapToLong(SoakSession::acknowledged).sum();

            // ---- end most sessions, let a few expire ----
            List<SoakSession> expiring = sessions.subList(0, EXPIRING);
            List<SoakSession> ending = sessions.subList(EXPIRING, sessions.size());
            end(clients, ending);
            long expiredIn = expire(expiring);
            await().atMost(WAIT).pollDelay(Duration.ZERO).until(() -> live.stream()
                    .allMatch(session -> session.streams.stream().allMatch(stream -> stream.closed)));
            for (SoakSession session : sessions) {
                for (SoakSession.Stream stream : session.streams) {
                    if (!stream.endedEvent) {
                        wrong.add("session " + session.index + ": a stream closed without an 'ended' event");
                    }
                }
            }
            for (SoakSession session : expiring.subList(0, Math.min(5, expiring.size()))) {
                int status = call(session, "increment", "POST", "/api/counter/increment", null, Set.of(410)).status();
                if (status != 410) {
                    wrong.add("session " + session.index + " expired, yet a click got " + status);
                }
            }
            await().atMost(WAIT).until(() -> registry.contexts().size() <= baseContexts
                    && liveBoards.size() <= baseBoards && manager().getActiveSessions() <= baseTomcatSessions);
            sessions = null;
            expiring = null;
            ending = null;
            live = null;
            long afterHeap = heapAfterGc();
            Map<String, Long> afterInstances = HeapHistogram.instances();
            Map<String, Long> leftOver = new TreeMap<>();
            for (String type : PER_SESSION_TYPES) {
                leftOver.put(type, afterInstances.getOrDefault(type, 0L) - baseInstances.getOrDefault(type, 0L));
            }
            SessionTotals totals = sessionTotals().minus(baseTotals);
            System.out.println("SOAK HEAP live - baseline, largest growth:\n" + liveGrowth);
            System.out.println("SOAK HEAP after - baseline, largest growth:\n" + HeapHistogram.growth(baseHistogram, HeapHistogram.take(), 12));

            // ---- figures ----
            long perSession = (liveHeap - baseHeap) / SESSIONS;
            System.out.printf("SOAK RESULT seed=%d sessions=%d streams=%d clients=%d duration=%.1fs requests=%d"
                    + " rate=%.0f/s acknowledged-clicks=%d stream-events=%d%n", SEED, SESSIONS, streams, CLIENTS,
                    seconds, requests, requests / seconds, clicks, streamEvents);
            latency.forEach((op, h) -> System.out.printf("SOAK LATENCY %-12s %s%n", op, describe(h)));
            System.out.printf("SOAK ANSWERS %s%n", new TreeMap<>(answers));
            System.out.printf("SOAK MEMORY baseline=%.1f MB live=%.1f MB (%d live contexts) after=%.1f MB"
                    + " per-live-session=%d B (includes the test client's share and open streams)%n",
                    mb(baseHeap), mb(liveHeap), liveContexts, mb(afterHeap), perSession);
            System.out.printf("SOAK LEFT-OVER per-session objects after - baseline: %s (%d live threads)%n", leftOver,
                    ManagementFactory.getThreadMXBean().getThreadCount());
            System.out.printf("SOAK TASKS session scope: %s; forced closes %d; expired sessions gone in %d ms%n",
                    totals, totals.forcedCloses, expiredIn);

            assertThat(serverErrors.sum()).as("5xx answers; first unexpected: %s", unexpected).isZero();
            assertThat(unexpected).as("answers outside each call's designed set").isEmpty();
            assertThat(wrong).as("sessions whose counter or streams disagree with the acknowledged clicks").isEmpty();
            assertThat(liveContexts).as("a live context per session").isGreaterThanOrEqualTo(SESSIONS);
            assertThat(totals.cancelled).as("tasks cancelled (lost) by a forced close").isZero();
            assertThat(totals.unhandled).as("unhandled failures of posted callbacks").isZero();
            assertThat(totals.forcedCloses).as("contexts that had to be force-closed").isZero();
            // The watchdog's per-thread frame remembers the last context it saw on a thread until its
            // next tick (at most 250 ms) finds that thread idle, so at the instant of the histogram up
            // to one closed context per thread may still be reachable.
            int threads = ManagementFactory.getThreadMXBean().getThreadCount();
            assertThat(leftOver).as("per-session objects alive after every session ended, vs baseline")
                    .allSatisfy((type, extra) -> assertThat(extra).as(type)
                            .isLessThanOrEqualTo(type.equals("dev.synccontext.SyncContext") ? threads : 0L));
            assertThat(afterHeap - baseHeap)
                    .as("heap after every session ended (%.1f MB) vs baseline (%.1f MB), with %.1f MB live",
                            mb(afterHeap), mb(baseHeap), mb(liveHeap))
                    .isLessThan(HEAP_SLACK);
        } finally {
            clients.shutdownNow();
            clients.awaitTermination(30, TimeUnit.SECONDS);
        }
    }

    /** Starts {@code count} sessions ({@code GET /api/board}); the first {@code streamed} open event streams. */
    private List<SoakSession> start(ExecutorService clients, int count, int streamed) throws Exception {
        List<SoakSession> sessions = new ArrayList<>();
        List<Future<?>> started = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            SoakSession session = new SoakSession(i);
            sessions.add(session);
            started.add(clients.submit(() -> call(session, "board", "GET", "/api/board", null, OK)));
        }
        for (Future<?> f : started) {
            f.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        }
        for (int i = 0; i < Math.min(streamed, count); i++) {
            SoakSession session = sessions.get(i);
            open(session);
            if (i % 5 == 0) {
                open(session);
            }
        }
        await().atMost(WAIT).pollDelay(Duration.ZERO).until(() -> sessions.stream()
                .allMatch(session -> session.streams.stream().allMatch(stream -> stream.boards > 0 || stream.closed)));
        for (SoakSession session : sessions) {
            for (SoakSession.Stream stream : session.streams) {
                assertThat(stream.status).as("event stream of session %d", session.index).isEqualTo(200);
            }
        }
        return sessions;
    }

    private void open(SoakSession session) {
        SoakSession.Stream stream = new SoakSession.Stream();
        session.streams.add(stream);
        HttpRequest request = HttpRequest.newBuilder(uri("/api/events")).timeout(WAIT)
                .header("Accept", "text/event-stream").header("Cookie", session.cookieHeader()).GET().build();
        http.sendAsync(request, info -> {
            stream.status = info.statusCode();
            return BodySubscribers.fromLineSubscriber(stream);
        });
    }

    /** Every client thread picks random sessions and calls until the time is up; returns the request count. */
    private long load(ExecutorService clients, List<SoakSession> sessions, Duration duration, long seed)
            throws Exception {
        long end = System.nanoTime() + duration.toNanos();
        LongAdder requests = new LongAdder();
        List<Future<?>> running = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
            SplittableRandom random = new SplittableRandom(seed + c);
            running.add(clients.submit(() -> {
                while (System.nanoTime() < end) {
                    step(sessions.get(random.nextInt(sessions.size())), random);
                    requests.increment();
                }
                return null;
            }));
        }
        for (Future<?> f : running) {
            f.get(duration.toSeconds() + WAIT.toSeconds(), TimeUnit.SECONDS);
        }
        return requests.sum();
    }

    private void step(SoakSession session, SplittableRandom random) {
        int r = random.nextInt(100);
        if (r < 60) {
            Answer a = call(session, "increment", "POST", "/api/counter/increment", null, OK);
            if (a.status() == 200) {
                session.clickAcknowledged(BoardClient.JSON.readTree(a.body()).get("counter").asLong());
            }
        } else if (r < 80) {
            call(session, "board", "GET", "/api/board", null, OK);
        } else if (r < 88) {
            Answer a = call(session, "add-item", "POST", "/api/items", "text=item+" + random.nextInt(1000), OK_OR_FULL);
            if (a.status() == 200) {
                var items = BoardClient.JSON.readTree(a.body()).get("items");
                session.lastItemId = items.get(items.size() - 1).get("id").asLong();
            }
        } else if (r < 93) {
            call(session, "toggle-item", "POST", "/api/items/" + session.lastItemId + "/toggle", null, OK_OR_GONE_ITEM);
        } else if (r < 97) {
            call(session, "remove-item", "DELETE", "/api/items/" + session.lastItemId, null, OK_OR_GONE_ITEM);
        } else {
            call(session, "quote", "POST", "/api/quote", "symbol=ACME", OK_OR_FULL);
        }
    }

    private List<String> verifyCounters(ExecutorService clients, List<SoakSession> sessions) throws Exception {
        List<String> wrong = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<Future<?>> checks = new ArrayList<>();
        for (SoakSession session : sessions) {
            checks.add(clients.submit(() -> {
                Answer a = call(session, "board", "GET", "/api/board", null, OK);
                long counter = a.status() == 200 ? BoardClient.JSON.readTree(a.body()).get("counter").asLong() : -1;
                if (counter != session.acknowledged()) {
                    wrong.add("session " + session.index + ": counter " + counter + ", acknowledged clicks "
                            + session.acknowledged());
                }
                String problem = session.answersProblem();
                if (problem != null) {
                    wrong.add("session " + session.index + ": " + problem);
                }
            }));
        }
        for (Future<?> f : checks) {
            f.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        }
        return wrong;
    }

    private void end(ExecutorService clients, List<SoakSession> sessions) throws Exception {
        List<Future<?>> ended = new ArrayList<>();
        for (SoakSession session : sessions) {
            ended.add(clients.submit(() -> call(session, "end", "DELETE", "/api/session", null, Set.of(204))));
        }
        for (Future<?> f : ended) {
            f.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        }
    }

    /**
     * Expires sessions the way Tomcat does: their inactivity limit drops to 1 s and Tomcat's own sweep
     * ({@code ManagerBase.processExpires()}, which its background thread runs about once a minute) is run
     * until it has removed them all. Returns how long that took.
     */
    private long expire(List<SoakSession> sessions) throws IOException {
        long began = System.nanoTime();
        ManagerBase manager = (ManagerBase) manager();
        for (SoakSession session : sessions) {
            var tomcatSession = manager.findSession(session.sessionId());
            assertThat(tomcatSession).as("Tomcat session of soak session %d", session.index).isNotNull();
            tomcatSession.setMaxInactiveInterval(1);
        }
        await().atMost(WAIT).pollInterval(Duration.ofMillis(200)).until(() -> {
            manager.processExpires();
            for (SoakSession session : sessions) {
                if (manager.findSession(session.sessionId()) != null) {
                    return false;
                }
            }
            return true;
        });
        return Duration.ofNanos(System.nanoTime() - began).toMillis();
    }

    private Manager manager() {
        var tomcat = ((TomcatWebServer) web.getWebServer()).getTomcat();
        return ((Context) tomcat.getHost().findChildren()[0]).getManager();
    }

    record Answer(int status, String body) {
    }

    /** One request of one session; records its latency and answer, and flags anything outside {@code expected}. */
    private Answer call(SoakSession session, String op, String method, String path, String form,
            Set<Integer> expected) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).timeout(WAIT).header("Accept", "application/json");
        String cookies = session.cookieHeader();
        if (cookies != null) {
            request.header("Cookie", cookies);
        }
        if (session.csrfToken() != null) {
            request.header("X-XSRF-TOKEN", session.csrfToken());
        }
        if (form != null) {
            request.header("Content-Type", "application/x-www-form-urlencoded");
        }
        request.method(method, form == null ? BodyPublishers.noBody() : BodyPublishers.ofString(form));
        long began = System.nanoTime();
        int status;
        String body;
        try {
            HttpResponse<String> response = http.send(request.build(), BodyHandlers.ofString());
            status = response.statusCode();
            body = response.body();
            session.absorbCookies(response.headers());
        } catch (IOException e) {
            status = -1;
            body = e.toString();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Answer(-1, "interrupted");
        }
        Histogram histogram = latency.get(op);
        if (histogram != null) {
            histogram.recordValue(Math.min(MAX_LATENCY_MICROS, Math.max(1, (System.nanoTime() - began) / 1_000)));
        }
        answers.computeIfAbsent(op + " " + status, k -> new LongAdder()).increment();
        if (status >= 500) {
            serverErrors.increment();
        }
        if (!expected.contains(status) && unexpected.size() < 20) {
            unexpected.add(method + " " + path + " (session " + session.index + ") -> " + status + " "
                    + body.substring(0, Math.min(300, body.length())));
        }
        return new Answer(status, body);
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    private void resetLatency() {
        latency.replaceAll((op, h) -> newLatencyHistogram());
    }

    /**
     * Microseconds from 1 µs to {@value #MAX_LATENCY_MICROS} µs, 3 significant digits; safe to record from
     * many client threads. A fixed range, so it is allocated whole before the heap baseline and never
     * grows during the soak (the heap figures would count its growth as per-session memory).
     */
    private static Histogram newLatencyHistogram() {
        return new ConcurrentHistogram(1, MAX_LATENCY_MICROS, 3);
    }

    private static String describe(Histogram micros) {
        return String.format("n=%d p50=%.2f ms p99=%.2f ms max=%.1f ms", micros.getTotalCount(),
                micros.getValueAtPercentile(50) / 1_000.0, micros.getValueAtPercentile(99) / 1_000.0,
                micros.getMaxValue() / 1_000.0);
    }

    private static long heapAfterGc() {
        long least = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            least = Math.min(least, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return least;
    }

    private static double mb(long bytes) {
        return bytes / (1024.0 * 1024.0);
    }

    private SessionTotals sessionTotals() {
        SyncContextStatistics s = registry.statistics("session");
        long success = 0;
        long failure = 0;
        long cancelled = 0;
        long rejected = 0;
        for (CallbackPath path : CallbackPath.values()) {
            success += s.tasks(path, CallbackOutcome.SUCCESS);
            failure += s.tasks(path, CallbackOutcome.FAILURE);
            cancelled += s.tasks(path, CallbackOutcome.CANCELLED);
            rejected += s.tasks(path, CallbackOutcome.REJECTED);
        }
        return new SessionTotals(success, failure, cancelled, rejected, s.unhandled(), registry.forcedCloses());
    }

    /** Task outcomes of the session scope (all paths), unhandled failures and forced closes. */
    record SessionTotals(long success, long failure, long cancelled, long rejected, long unhandled,
            long forcedCloses) {

        SessionTotals minus(SessionTotals base) {
            return new SessionTotals(success - base.success, failure - base.failure, cancelled - base.cancelled,
                    rejected - base.rejected, unhandled - base.unhandled, forcedCloses - base.forcedCloses);
        }
    }
}
