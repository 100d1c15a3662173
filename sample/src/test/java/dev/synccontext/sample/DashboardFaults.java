package dev.synccontext.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import dev.synccontext.ExecutorStatistics;
import dev.synccontext.RendererSyncContext;
import dev.synccontext.live.CloseReason;
import dev.synccontext.live.LiveChannel;
import dev.synccontext.live.LiveSubscriber;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.spring.session.SessionContexts;
import dev.synccontext.testing.StalledSocket;
import jakarta.servlet.http.HttpSession;
import org.apache.catalina.Context;
import org.apache.catalina.Session;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;

/**
 * The faults behind the dashboard panels that ordinary traffic leaves at zero, each made by its real trigger in
 * the running sample:
 *
 * <ul>
 *   <li><b>A session split</b>: a request whose session handle names another node while this node still has the
 *       session's context open. On a cluster without session affinity, the other node writes that handle into
 *       the shared session store when it serves the session; here the test writes it into Tomcat's session (the
 *       sample has no shared store), and the next request of the session meets it as it would meet the store's.
 *       {@link SessionContexts} then counts the split and writes its own handle back.</li>
 *   <li><b>A live-channel drop by policy</b>: a tab whose client stopped reading ({@link StalledSocket}). Clicks
 *       fill its socket buffers until its drain waits on the network; from then on each board the session
 *       publishes (every click and every tick) replaces the one buffered for it (coalesced by key: a drop).</li>
 *   <li><b>A slow disconnect</b>: a client that stopped reading on an event stream whose channel disconnects a
 *       subscriber with a full buffer ({@link DisconnectingEvents}). Messages fill its socket buffers, then its
 *       channel buffer, and the next one ends it as too slow.</li>
 *   <li><b>A sustained queue depth</b>: a session's context whose callback blocks, with more callbacks posted
 *       behind it than the queue-depth alert's threshold; they stay queued until {@link Backlog#close()}.</li>
 *   <li><b>The executor at its cap</b>: callbacks of more contexts than the default executor has threads block
 *       on a latch; once the pool has compensated up to its cap, queued work finds no thread (counted while it
 *       stays there). Released by {@link AtCap#close()}.</li>
 * </ul>
 *
 * {@link #keepSplitting} and {@link #keepDisconnecting} repeat their fault (each one counts) while the panels
 * that show a rate are read: they show a fault only for one rate interval after it.
 */
final class DashboardFaults implements AutoCloseable {

    /** Clicks that fill a stalled tab's socket buffers many times over (a 4 KB board; a few MB of buffers). */
    private static final int MAX_CLICKS_TO_STALL = 30_000;
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** One message to a slow client: 64 KB, so that a few MB of socket buffers fill within a hundred messages. */
    private static final String CHUNK = "x".repeat(64 * 1024);
    /** Messages that fill a stalled client's socket buffers many times over (Linux's grow to a few MB). */
    private static final int MAX_CHUNKS_TO_DISCONNECT = 2_000;
    private static final String OTHER_NODE = "another-node";

    private final int port;
    private final WebServerApplicationContext server;
    private final LiveBoards liveBoards;
    private final List<AutoCloseable> opened = new ArrayList<>();
    private final ScheduledExecutorService repeater = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "dashboard-faults");
        thread.setDaemon(true);
        return thread;
    });

    DashboardFaults(int port, WebServerApplicationContext server, LiveBoards liveBoards) {
        this.port = port;
        this.server = server;
        this.liveBoards = liveBoards;
    }

    /** A new session that splits now: see the class comment. */
    BoardClient splitSession() throws IOException {
        BoardClient session = new BoardClient(port);
        assertThat(session.get("/api/board").status()).isEqualTo(200);
        split(session);
        return session;
    }

    /** The next request of {@code session} arrives as if another node had served it meanwhile: a split here. */
    void split(BoardClient session) throws IOException {
        HttpSession http = tomcatSession(session.sessionId());
        String handle = (String) http.getAttribute(SessionContexts.SESSION_ATTRIBUTE);
        assertThat(handle).as("the session's context handle").contains("@");
        http.setAttribute(SessionContexts.SESSION_ATTRIBUTE, handle.substring(0, handle.indexOf('@') + 1) + OTHER_NODE);
        // A click: it also writes a durable snapshot, so the snapshot-size panel has fresh data too.
        BoardClient.Reply reply = session.post("/api/counter/increment");
        assertThat(reply.status()).as("%s", reply).isEqualTo(200);
        assertThat((String) http.getAttribute(SessionContexts.SESSION_ATTRIBUTE))
                .as("this node took the session back").doesNotEndWith("@" + OTHER_NODE);
    }

    /** Splits {@code session} again every {@code period} until {@link #close()}. */
    void keepSplitting(BoardClient session, Duration period) {
        repeater.scheduleWithFixedDelay(() -> {
            try {
                split(session);
            } catch (IOException | AssertionError e) {
                System.out.println("dashboard faults: a repeated split failed: " + e);
            }
        }, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * A new session with a tab that stopped reading, clicked until that tab's drain waits on the network and a
     * board was dropped for it; the ticker's boards go on dropping until {@link #close()}.
     *
     * @return the stalled tab's subscriber
     */
    LiveSubscriber stalledTab() throws IOException {
        BoardClient session = new BoardClient(port);
        String contextName = session.get("/api/board").json().get("context").get("name").asString();
        for (int i = 0; i < 40; i++) { // under sample.max-items (50): the bigger the board, the sooner buffers fill
            BoardClient.Reply added = session.postForm("/api/items", "text", "%s%02d".formatted("x".repeat(78), i));
            assertThat(added.status()).as("item %d: %s", i, added).isEqualTo(200); // 80: sample.max-item-length
        }
        Board board = liveBoards.all().stream().filter(b -> b.context().name().equals(contextName)).findFirst()
                .orElseThrow();
        opened.add(StalledSocket.sse(port, "/api/events", session.sessionId()));
        awaitTrue("the stalled tab subscribed", () -> board.tabs().size() == 1);
        LiveSubscriber tab = board.tabs().get(0);
        int clicks = 0;
        while (tab.dropped() == 0) {
            assertThat(clicks).as("no board dropped for the stalled tab within %d clicks", MAX_CLICKS_TO_STALL)
                    .isLessThan(MAX_CLICKS_TO_STALL);
            assertThat(session.post("/api/counter/increment").status()).isEqualTo(200);
            clicks++;
        }
        System.out.printf("dashboard faults: the stalled tab dropped its first board after %d clicks%n", clicks);
        return tab;
    }

    /**
     * A client that stops reading on {@link DisconnectingEvents#PATH}: messages are published on the stream's
     * channel (inside its context) until the channel disconnected it as too slow.
     *
     * @return the slow client's subscriber, ended
     */
    LiveSubscriber slowClient(DisconnectingEvents.Stream stream) throws IOException, InterruptedException {
        LiveChannel channel = stream.channel();
        try (StalledSocket socket = new StalledSocket(port, "GET " + DisconnectingEvents.PATH
                + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nAccept: text/event-stream\r\n\r\n")) {
            awaitTrue("the slow client subscribed", () -> channel.subscribers().stream().anyMatch(LiveSubscriber::isOpen));
            LiveSubscriber subscriber = channel.subscribers().stream().filter(LiveSubscriber::isOpen).findFirst()
                    .orElseThrow();
            int published = 0;
            while (subscriber.isOpen()) {
                assertThat(published).as("the slow client still connected after %d messages of %d KB", published,
                        CHUNK.length() / 1024).isLessThan(MAX_CHUNKS_TO_DISCONNECT);
                try {
                    stream.context().invokeAsync(() -> channel.publish("chunk", CHUNK)).get(WAIT.toSeconds(), TimeUnit.SECONDS);
                } catch (ExecutionException | TimeoutException e) {
                    throw new AssertionError("publishing to " + channel.name() + " failed", e);
                }
                published++;
            }
            assertThat(subscriber.closeReason()).as("why the slow client was disconnected").isEqualTo(CloseReason.TOO_SLOW);
            return subscriber;
        }
    }

    /**
     * Disconnects a new slow client ({@link #slowClient}) every {@code period}, until the returned handle or
     * {@link #close()} is closed; closing the handle waits for a slow client under way.
     */
    AutoCloseable keepDisconnecting(DisconnectingEvents.Stream stream, Duration period) {
        Future<?> repeating = repeater.scheduleWithFixedDelay(() -> {
            try {
                slowClient(stream);
            } catch (IOException | AssertionError e) {
                System.out.println("dashboard faults: a repeated slow client failed: " + e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
        return () -> {
            repeating.cancel(false);
            if (!repeater.isShutdown()) {
                repeater.submit(() -> { }).get(WAIT.toSeconds(), TimeUnit.SECONDS); // one thread: after the one under way
            }
        };
    }

    /**
     * A new session whose context runs a callback that blocks, with {@code queued} callbacks posted behind it:
     * its queue depth stays at {@code queued} until {@link Backlog#close()}.
     */
    Backlog backlog(int queued) throws IOException {
        BoardClient session = new BoardClient(port);
        String contextName = session.get("/api/board").json().get("context").get("name").asString();
        RendererSyncContext context = liveBoards.all().stream().filter(b -> b.context().name().equals(contextName))
                .findFirst().orElseThrow().context();
        Backlog backlog = new Backlog(context);
        opened.add(backlog);
        context.post(backlog::block);
        awaitTrue("the backlog's first callback runs", () -> backlog.blocking.getCount() == 0);
        for (int i = 0; i < queued; i++) {
            context.post(() -> { });
        }
        return backlog;
    }

    /** Callbacks queued behind a blocked one on a session's context; {@link #close()} lets them run. */
    static final class Backlog implements AutoCloseable {

        /** Longer than any phase of the test holds it; bounded so that a failed test leaves no thread behind. */
        private static final Duration HOLD = Duration.ofMinutes(3);

        private final RendererSyncContext context;
        private final CountDownLatch blocking = new CountDownLatch(1);
        private final CountDownLatch release = new CountDownLatch(1);

        private Backlog(RendererSyncContext context) {
            this.context = context;
        }

        String contextName() {
            return context.name();
        }

        private void block() {
            blocking.countDown();
            awaitRelease(release, HOLD);
        }

        @Override
        public void close() {
            release.countDown();
        }
    }

    /**
     * The default executor, which the sample's contexts drain on, held at its cap: blocking callbacks on
     * {@code maxThreads + parallelism + 8} new contexts, until the pool counted its cap reached.
     */
    AtCap executorAtCap(SyncContextRegistry registry) {
        Object executor = RendererSyncContext.defaultExecutor();
        assertThat(registry.template().executor()).as("the sample drains on the default executor").isSameAs(executor);
        ExecutorStatistics pool = (ExecutorStatistics) executor;
        long before = pool.capReached();
        int contexts = pool.maxThreads() + pool.parallelism() + 8;
        AtCap atCap = new AtCap(registry);
        opened.add(atCap);
        for (int i = 0; i < contexts; i++) {
            RendererSyncContext context = registry.create("keyed");
            atCap.contexts.add(context);
            context.post(atCap::block);
        }
        awaitTrue("the default executor reaches its cap of " + pool.maxThreads() + " threads",
                () -> pool.capReached() > before);
        System.out.printf("dashboard faults: executor at its cap, %d threads (%d blocked), cap reached %d times%n",
                pool.threads(), pool.blockedThreads(), pool.capReached() - before);
        return atCap;
    }

    /** Callbacks blocked on a latch, on contexts of their own; {@link #close()} lets them go and releases them. */
    static final class AtCap implements AutoCloseable {

        private final SyncContextRegistry registry;
        private final CountDownLatch release = new CountDownLatch(1);
        /** Callbacks inside {@link #block()}; one that starts after the release returns at once. */
        private final AtomicInteger blocking = new AtomicInteger();
        private final List<RendererSyncContext> contexts = new ArrayList<>();

        private AtCap(SyncContextRegistry registry) {
            this.registry = registry;
        }

        private void block() {
            blocking.incrementAndGet();
            try {
                awaitRelease(release, WAIT);
            } finally {
                blocking.decrementAndGet();
            }
        }

        /** Lets the callbacks go and waits until every one returned (not for other blocked work, a {@link Backlog}'s). */
        @Override
        public void close() {
            release.countDown();
            contexts.forEach(registry::release);
            awaitTrue("the blocked callbacks returned", () -> blocking.get() == 0);
        }
    }

    @Override
    public void close() throws Exception {
        repeater.shutdownNow();
        repeater.awaitTermination(10, TimeUnit.SECONDS);
        for (AutoCloseable closeable : opened) {
            closeable.close();
        }
    }

    private HttpSession tomcatSession(String sessionId) throws IOException {
        assertThat(sessionId).as("the session cookie").isNotNull();
        Context context = (Context) ((TomcatWebServer) server.getWebServer()).getTomcat().getHost().findChildren()[0];
        Session session = context.getManager().findSession(sessionId);
        assertThat(session).as("Tomcat's session %s", sessionId).isNotNull();
        return session.getSession();
    }

    /**
     * A blocked callback's wait for {@code release}, at most {@code bound}: bounded, so that a failed test leaves no
     * thread behind for the next one in this JVM. An interrupt ends it, and stays set.
     */
    private static void awaitRelease(CountDownLatch release, Duration bound) {
        try {
            release.await(bound.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void awaitTrue(String what, BooleanSupplier condition) {
        await(what).atMost(WAIT).pollInterval(Duration.ofMillis(20)).until(condition::getAsBoolean);
    }
}
