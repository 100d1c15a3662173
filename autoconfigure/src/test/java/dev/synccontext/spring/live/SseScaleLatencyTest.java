package dev.synccontext.spring.live;



import static dev.synccontext.spring.live.OnStalledTabBoard.CAPACITY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.live.LiveBoardApp.Board;
import dev.synccontext.spring.live.LiveBoardApp.Boards;
import dev.synccontext.live.LiveStatistics;
import dev.synccontext.live.LiveSubscriber;
import dev.synccontext.live.OverflowPolicy;
import dev.synccontext.testing.NoThreadLeftStuck;
import dev.synccontext.testing.SseCrowd.Tab;
import dev.synccontext.testing.SseCrowd;
import dev.synccontext.testing.StalledSocket;
import io.micrometer.core.instrument.MeterRegistry;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.awaitility.core.ConditionTimeoutException;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The scale rule at its full size, over real Tomcat and real sockets: 1,000 sessions, each with its
 * own board and live channel on its own context, one healthy SSE tab per session ({@link SseCrowd}, one
 * selector thread for all of them), and, in the second run, 50 more tabs on 50 of those sessions whose clients
 * never read ({@link StalledSocket}: 2 KB receive buffer), their socket buffers filled before the run. Each run
 * publishes one change on every session per round, {@value #ROUNDS} rounds, the next round once every healthy
 * tab got the last one; each event carries its sequence number (its SSE id) and its publication time, so the
 * tabs time their own deliveries. Asserted:
 * <ul>
 *   <li>the 50 stalled subscribers cost the healthy tabs no latency: the stalled run's healthy p99 stays within
 *       {@link #latencyBound} of the no-stall run's, and the p99 of the 50 tabs that share a session with a
 *       stalled one (where head-of-line blocking would land) within {@link #neighbourBound} of the other 950's in
 *       the same rounds;</li>
 *   <li>the executor's worker threads sampled every round do not grow with them beyond {@value #THREAD_SLACK};</li>
 *   <li>per healthy tab: sequence numbers strictly increasing, every event the transport took arrived once, the
 *       sum of its gaps is exactly what its subscriber counted dropped; the scope's statistics and the
 *       {@code synccontext.live.dropped} / {@code written} meters moved by exactly the subscribers' sums;</li>
 *   <li>per stalled subscriber: its buffer holds exactly the capacity, never more, and the policy dropped for it
 *       during the run (the premise that makes the run a test: they were at their bound, not keeping up); every
 *       publish of the run was written or dropped, counted; written + buffered + dropped = its snapshot,
 *       everything published since and what the fill sent it;</li>
 *   <li>no session's context was blocked by a write: every round's publishes answered within the deadline (they
 *       run on a pool thread, so a publish stuck in a write fails the test instead of hanging it) and the watchdog
 *       reports no blocked callback at any round's end (as {@link SseHeadOfLineTest} checks after each request;
 *       its per-context count is printed, not asserted zero: on this machine at load average 30 a callback that
 *       only publishes was seen descheduled past the 500 ms threshold); every socket and every server-side
 *       subscriber is gone at the end.</li>
 * </ul>
 *
 * <p>The goal "healthy p99 within 1.1× of a run with no stalled ones" is printed, not asserted: a timed
 * test on this 2-core machine shared with other builds cannot hold 10 % (two runs without any stalled tab
 * differ by more than that; see {@link #latencyBound}). The figure to quote is the printed line. Throughput
 * and latency figures of record come from JMH in {@code bench/}; this test's bound only catches a regression
 * of the kind the rule is about.
 *
 * <p>Why in-process (a {@code @SpringBootTest}), not a child JVM as the drain's process test: the clients'
 * selector thread takes a small share of the process's CPU (printed per run as "crowd CPU"), a child JVM would
 * not give the server more cores (both share the same two), and the test needs each subscriber's own counts
 * and one clock for publication and receipt. Why drop-oldest (the shared settings of {@link SseHeadOfLineTest},
 * so the three tests share one application): its drops are visible as gaps in the sequence numbers, one per
 * drop, and a stalled buffer fills to its capacity; the board's coalesce-by-key would coalesce its one key
 * ({@code board}) in place, bounding a stalled buffer at one message, and the gap accounting would be the same
 * arithmetic with a weaker bound to check. The premise that the mechanism is needed at all (a write inside the
 * callback blocks the session on a stalled tab) is {@link SseHeadOfLineTest}'s premise test, on one session:
 * a 1,000-session premise would only repeat it slower.
 */
@OnStalledTabBoard
@Tag("scale")
class SseScaleLatencyTest {

    static final int SESSIONS = 1_000;
    static final int STALLED = 50;
    static final int ROUNDS = 60;
    static final int WARM_UP_ROUNDS = 10;
    /** The board's pad per change: a small board event (about 250 bytes on the wire). */
    static final int SIZE = 200;
    /**
     * What fills a stalled tab's socket buffers: 64 KB messages sent to the stalled subscribers only
     * ({@link LiveSubscriber#send}), a few at a time, until each has taken {@link #FILL_BYTES} or has stopped
     * taking for {@link #FILL_SETTLE}. Linux autotunes a socket's send buffer up to {@code net.ipv4.tcp_wmem}'s
     * maximum (4 MB here) and kept taking: a fill that stopped at the first pause (400 KB per tab) left
     * stalled tabs that drained their whole buffer during the run, and one of 1.4 MB still took 13 KB.
     */
    static final int FILL_SIZE = 64_000;
    static final int FILL_BURST = 8;
    static final long FILL_BYTES = 4_400_000;
    static final Duration FILL_SETTLE = Duration.ofSeconds(2);
    static final int MAX_FILL_BURSTS = 2_000;
    /** Tabs connected at a time: below Tomcat's accept backlog (100), so no SYN waits for a retry. */
    static final int CONNECT_BATCH = 100;
    static final Duration DEADLINE = Duration.ofSeconds(20);
    /**
     * Worker threads the stalled run may add to the no-stall run's: the elastic executor adds one when a worker
     * has been inside one task for a few milliseconds, which a descheduled worker on a loaded 2-core machine can
     * look like; a stalled subscriber that held a thread would add 50.
     */
    static final int THREAD_SLACK = 4;
    /**
     * Workers inside a subscriber's drain once a round is delivered, beyond the no-stall run's: a drain that wrote a
     * tab's last event may still be flushing or going idle (up to 3 seen here at once); 50 stalled drains that held
     * their threads would be 50.
     */
    static final int IN_DRAIN_SLACK = 10;
    /** See {@link #latencyBound}. */
    static final long LATENCY_SLACK_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    /** See {@link #neighbourBound}. */
    static final long NEIGHBOUR_SLACK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final Pattern WORKER = Pattern.compile("synccontext-\\d+");

    @RegisterExtension
    final NoThreadLeftStuck threads = new NoThreadLeftStuck();

    @LocalServerPort
    int port;

    @Autowired
    Boards boards;

    @Autowired
    LiveChannels channels;

    @Autowired
    MeterRegistry meters;

    /** The test's crowd, for the failure messages of waits. */
    private volatile @Nullable SseCrowd crowd;

    /** One run's healthy latencies (sorted, nanoseconds), overall and for the tabs sharing a session with a stalled one. */
    record Run(String name, long[] latencies, long[] neighbours, long[] others, int startWorkers, int maxWorkers, int maxInDrains,
            long wallNanos,
            long crowdCpuNanos, long processCpuNanos, long gcMillis) {

        long p(long[] sorted, double quantile) {
            return sorted[(int) Math.ceil(quantile * sorted.length) - 1];
        }

        long p50() {
            return p(latencies, 0.50);
        }

        long p99() {
            return p(latencies, 0.99);
        }

        long neighboursP99() {
            return p(neighbours, 0.99);
        }

        long othersP99() {
            return p(others, 0.99);
        }
    }

    @Test
    void fiftyStalledTabsAmongAThousandSessionsCostTheHealthyTabsNoLatencyNoThreadAndNoUncountedDrop() throws Exception {
        long started = System.nanoTime();
        LiveStatistics statistics = channels.statistics(LiveChannels.DEFAULT_SCOPE);
        long droppedBefore = statistics.dropped(OverflowPolicy.DROP_OLDEST);
        long coalescedBefore = statistics.dropped(OverflowPolicy.COALESCE_BY_KEY);
        long writtenBefore = statistics.written();
        ExecutorService publisher = threads.fixedPool(1, "scale-publisher-");
        SseCrowd crowd = threads.closing(new SseCrowd(port, threads.threadFactory("timed-sse-crowd-"), true));
        this.crowd = crowd;

        Tab[] tabs = openHealthyTabs(crowd);
        Board[] board = boardsOf(tabs);
        LiveSubscriber[] healthy = new LiveSubscriber[SESSIONS];
        for (int i = 0; i < SESSIONS; i++) {
            healthy[i] = board[i].tabs.get(tabs[i].name);
        }
        long connected = System.nanoTime();
        System.out.printf("scale: %d healthy tabs connected in %d ms%n", SESSIONS, (connected - started) / 1_000_000);

        run("warm-up", WARM_UP_ROUNDS, tabs, board, publisher, crowd);
        Run quiet = run("no stalled tab", ROUNDS, tabs, board, publisher, crowd);

        List<StalledSocket> stalledSockets = new ArrayList<>();
        for (int i = 0; i < STALLED; i++) {
            stalledSockets.add(threads.closing(StalledSocket.sse(port, "/events?tab=s" + i,
                    Objects.requireNonNull(tabs[i].cookie()))));
        }
        LiveSubscriber[] stalled = new LiveSubscriber[STALLED];
        long[] stalledSnapshotAt = new long[STALLED];
        for (int i = 0; i < STALLED; i++) {
            Board neighbour = board[i];
            String name = "s" + i;
            await().atMost(DEADLINE).until(() -> neighbour.tabs.containsKey(name));
            stalled[i] = neighbour.tabs.get(name);
            stalledSnapshotAt[i] = neighbour.live.lastSequence(); // nothing is published meanwhile: only this test publishes
        }
        long filling = System.nanoTime();
        long[] sent = new long[STALLED];
        long filledBytes = fill(stalled, sent);
        System.out.printf("scale: %d stalled tabs subscribed and filled in %d ms (%d KB taken in all)%n", STALLED,
                (System.nanoTime() - filling) / 1_000_000, filledBytes / 1024);
        long[] stalledWrittenBefore = Arrays.stream(stalled).mapToLong(LiveSubscriber::written).toArray();
        long[] stalledDroppedBefore = Arrays.stream(stalled).mapToLong(LiveSubscriber::dropped).toArray();
        long[] stalledBufferedBefore = Arrays.stream(stalled).mapToLong(LiveSubscriber::buffered).toArray();
        Run stalledRun = run("50 stalled tabs", ROUNDS, tabs, board, publisher, crowd);
        long measured = System.nanoTime();

        long healthyDropped = 0;
        long written = 0;
        long slowCallbacks = 0;
        for (int i = 0; i < SESSIONS; i++) {
            Tab tab = tabs[i];
            LiveSubscriber subscriber = healthy[i];
            long[] seen = tab.sequences();
            long last = board[i].live.lastSequence();
            assertThat(tab.problem()).as("tab %s's stream", tab.name).isNull();
            assertThat(seen).as("tab %s: strictly increasing sequence numbers", tab.name).isSorted().doesNotHaveDuplicates();
            assertThat(seen[0]).as("tab %s: its first event is its new session's snapshot, at 0", tab.name).isZero();
            assertThat(seen[seen.length - 1]).as("tab %s got the last change", tab.name).isEqualTo(last);
            assertThat(subscriber.written()).as("tab %s: every event its transport took arrived, once", tab.name)
                    .isEqualTo(seen.length);
            assertThat(last + 1 - seen.length).as("tab %s: the sum of its gaps is what its subscriber counted dropped",
                    tab.name).isEqualTo(subscriber.dropped());
            assertThat(subscriber.buffered()).isZero();
            assertThat(subscriber.highWater()).isLessThanOrEqualTo(CAPACITY);
            slowCallbacks += board[i].context.blockedCallbackCount();
            healthyDropped += subscriber.dropped();
            written += subscriber.written();
        }
        long stalledDropped = 0;
        long stalledBuffered = 0;
        long stalledTookInRun = 0;
        for (int i = 0; i < STALLED; i++) {
            LiveSubscriber subscriber = stalled[i];
            long last = board[i].live.lastSequence();
            assertThat(subscriber.isOpen()).as("stalled tab s%d: drop-oldest keeps it connected", i).isTrue();
            long writtenInRun = subscriber.written() - stalledWrittenBefore[i];
            long droppedInRun = subscriber.dropped() - stalledDroppedBefore[i];
            assertThat(subscriber.buffered()).as("stalled tab s%d: its buffer is full, at the capacity", i).isEqualTo(CAPACITY);
            assertThat(subscriber.highWater()).as("stalled tab s%d: never above the capacity", i).isEqualTo(CAPACITY);
            assertThat(droppedInRun).as("stalled tab s%d was at its bound during the run: the policy dropped for it"
                    + " (what its transport took meanwhile: %d)", i, writtenInRun).isPositive();
            assertThat(writtenInRun + droppedInRun).as("stalled tab s%d: each of the run's publishes was written or"
                    + " dropped, counted", i).isEqualTo(ROUNDS + stalledBufferedBefore[i] - subscriber.buffered());
            assertThat(subscriber.written() + subscriber.buffered() + subscriber.dropped())
                    .as("stalled tab s%d: written + buffered + dropped = its snapshot, everything published since, and"
                            + " the fill sent to it", i)
                    .isEqualTo(last - stalledSnapshotAt[i] + 1 + sent[i]);
            stalledTookInRun += writtenInRun;
            stalledDropped += subscriber.dropped();
            stalledBuffered += subscriber.buffered();
            written += subscriber.written();
        }
        assertThat(statistics.dropped(OverflowPolicy.DROP_OLDEST) - droppedBefore)
                .as("the scope's drop count moved by exactly the subscribers' drops").isEqualTo(healthyDropped + stalledDropped);
        assertThat(statistics.dropped(OverflowPolicy.COALESCE_BY_KEY)).isEqualTo(coalescedBefore);
        assertThat(statistics.written() - writtenBefore).as("the scope's written count").isEqualTo(written);
        assertThat(meters.get("synccontext.live.dropped").tag("scope", LiveChannels.DEFAULT_SCOPE)
                .tag("policy", "drop-oldest").functionCounter().count())
                .as("the dropped meter reads the scope's count").isEqualTo((double) statistics.dropped(OverflowPolicy.DROP_OLDEST));
        assertThat(meters.get("synccontext.live.written").tag("scope", LiveChannels.DEFAULT_SCOPE).functionCounter().count())
                .isEqualTo((double) statistics.written());
        assertThat(crowd.failure()).as("the crowd's selector").isNull();

        double ratio = (double) stalledRun.p99() / quiet.p99();
        System.out.printf("scale: %d sessions, %d healthy tabs, %d rounds per run; healthy delivery p50/p99: no stalled"
                + " tab %.1f/%.1f ms, %d stalled tabs %.1f/%.1f ms, p99 ratio %.2f (goal 1.1, printed; asserted: ≤ %.1f ms);"
                + " neighbours' p99 %.1f -> %.1f ms (the other tabs' %.1f in the same run); worker threads (max) %d -> %d,"
                + " inside a drain at a round's end %d -> %d; stalled tabs buffer %d (bound %d), took %d small events in all during the run,"
                + " dropped %d, took about %d KB each before they stalled; healthy tabs dropped %d; callbacks the watchdog"
                + " saw run over 500 ms on a starved CPU (none at any round's end) %d%n",
                SESSIONS, SESSIONS, ROUNDS, ms(quiet.p50()), ms(quiet.p99()), STALLED, ms(stalledRun.p50()),
                ms(stalledRun.p99()), ratio, ms(latencyBound(quiet)), ms(quiet.neighboursP99()),
                ms(stalledRun.neighboursP99()), ms(stalledRun.othersP99()), quiet.maxWorkers(), stalledRun.maxWorkers(),
                quiet.maxInDrains(), stalledRun.maxInDrains(), stalledBuffered, STALLED * CAPACITY, stalledTookInRun, stalledDropped, filledBytes / STALLED / 1024, healthyDropped, slowCallbacks);

        // The fill's bursts (64 KB to 50 subscribers at once) may grow the pool before the rounds begin, and an
        // idle worker lingers (seen on a quiet machine: 14 -> 40 alive at the start, none inside a drain); what the
        // stalled subscribers must not do is add threads while the rounds run.
        assertThat(stalledRun.maxWorkers()).as("worker threads with the stalled tabs vs without (and vs the %d alive"
                + " when the stalled run's rounds began)", stalledRun.startWorkers())
                .isLessThanOrEqualTo(Math.max(quiet.maxWorkers(), stalledRun.startWorkers()) + THREAD_SLACK);
        // The pool may have grown idle threads before (a starved CPU looks like blocked workers to it), which a
        // blocked drain would take without adding one: so also the workers inside a drain once a round is delivered.
        assertThat(stalledRun.maxInDrains()).as("workers inside a subscriber's drain at a round's end, with vs without")
                .isLessThanOrEqualTo(quiet.maxInDrains() + IN_DRAIN_SLACK);
        assertThat(stalledRun.p99()).as("healthy p99 with the stalled tabs (ns)").isLessThanOrEqualTo(latencyBound(quiet));
        assertThat(stalledRun.neighboursP99()).as("p99 (ns) of the healthy tabs sharing a session with a stalled one,"
                + " against the other healthy tabs of the same rounds").isLessThanOrEqualTo(neighbourBound(stalledRun));

        crowd.close();
        for (StalledSocket socket : stalledSockets) {
            socket.close();
        }
        // The server learns that a tab went away when a write fails: publish until every subscriber has ended.
        await("every subscriber ends once its client is gone").atMost(DEADLINE).pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    List<Board> open = Arrays.stream(board).filter(b -> !b.live.subscribers().isEmpty()).toList();
                    if (!open.isEmpty()) {
                        publish(publisher, open, 1, SIZE);
                    }
                    return open.isEmpty();
                });
        System.out.printf("scale: connect %d ms, warm-up and runs %d ms, checks and clean-up %d ms%n",
                (connected - started) / 1_000_000, (measured - connected) / 1_000_000,
                (System.nanoTime() - measured) / 1_000_000);
    }

    /**
     * The stalled run's healthy p99 may be at most twice the no-stall run's, or 500 ms above it, whichever is more.
     * Measured here (load average 30 to 50: five builds on two cores), no-stall against stalled p99: 290 against
     * 202 ms, 651 against 655, 256 against 241; the no-stall run alone ranged from 256 to 651 ms, the warm-up
     * reached 973: at that load a run's p99 is its worst rounds' latency, set by whatever else the machine ran
     * then, so a tighter bound across two runs would flake. What this bound stands for is that the
     * stalled tabs add no work to a healthy delivery; head-of-line blocking itself fails sooner and harder: a
     * publish stuck in a stalled write, or a healthy tab stuck behind its session's stalled one, misses its
     * round's {@link #DEADLINE}, and stalled drains holding threads fail {@link #THREAD_SLACK}.
     */
    static long latencyBound(Run quiet) {
        return Math.max(2 * quiet.p99(), quiet.p99() + LATENCY_SLACK_NANOS);
    }

    /**
     * The 50 tabs that share a session with a stalled one, against the 950 others of the same rounds of the same
     * run: a paired comparison, so the machine's load hits both sides alike and the bound can be tight (twice
     * the others' p99, or 100 ms above it). Head-of-line blocking inside a session would land on exactly these
     * 50; they are published first in every round, so without it their latency is the lower one.
     */
    static long neighbourBound(Run run) {
        return Math.max(2 * run.othersP99(), run.othersP99() + NEIGHBOUR_SLACK_NANOS);
    }

    private Tab[] openHealthyTabs(SseCrowd crowd) throws Exception {
        List<Tab> all = new ArrayList<>();
        for (int from = 0; from < SESSIONS; from += CONNECT_BATCH) {
            List<String> names = IntStream.range(from, Math.min(from + CONNECT_BATCH, SESSIONS)).mapToObj(i -> "h" + i).toList();
            List<Tab> batch = crowd.open("/events?tab=", names);
            await().atMost(DEADLINE).until(() -> batch.stream().allMatch(tab -> tab.lastSequence() >= 0 && tab.cookie() != null));
            all.addAll(batch);
        }
        return all.toArray(Tab[]::new);
    }

    /** The board of each tab's session: the one whose subscribers include the tab's name. */
    private Board[] boardsOf(Tab[] tabs) {
        Map<String, Board> byTab = new HashMap<>();
        await().atMost(DEADLINE).until(() -> {
            for (Board board : boards.all) {
                board.tabs.keySet().forEach(name -> byTab.putIfAbsent(name, board));
            }
            return Arrays.stream(tabs).allMatch(tab -> byTab.containsKey(tab.name));
        });
        return Arrays.stream(tabs).map(tab -> byTab.get(tab.name)).toArray(Board[]::new);
    }

    /** {@code rounds} rounds of one change on every session, each awaited by every healthy tab. */
    private Run run(String name, int rounds, Tab[] tabs, Board[] board, ExecutorService publisher, SseCrowd crowd)
            throws Exception {
        awaitDelivered(tabs, board, lastSequences(board), name + ", before the first round");
        ThreadMXBean threadBean = ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long[] from = lastSequences(board);
        long start = System.nanoTime();
        long crowdCpu = threadBean.getThreadCpuTime(crowd.threadId());
        long processCpu = os.getProcessCpuTime();
        long gc = gcMillis();
        int startWorkers = workerThreads(threadBean, false);
        int maxWorkers = startWorkers;
        int maxInDrains = 0;
        List<Board> all = List.of(board);
        for (int round = 0; round < rounds; round++) {
            publish(publisher, all, 1, SIZE);
            maxWorkers = Math.max(maxWorkers, workerThreads(threadBean, false)); // while the drains are busy
            awaitDelivered(tabs, board, lastSequences(board), name + ", round " + round);
            maxWorkers = Math.max(maxWorkers, workerThreads(threadBean, false));
            // Every healthy tab has its event: a worker still inside a subscriber's drain now is one a drain holds.
            maxInDrains = Math.max(maxInDrains, workerThreads(threadBean, true));
            assertThat(RendererSyncContext.blockedCallbacks()).as("%s, round %d: no callback blocked", name, round).isEmpty();
        }
        long wall = System.nanoTime() - start;
        crowdCpu = threadBean.getThreadCpuTime(crowd.threadId()) - crowdCpu;
        processCpu = os.getProcessCpuTime() - processCpu;
        gc = gcMillis() - gc;
        long[] to = lastSequences(board);
        List<long[]> each = new ArrayList<>();
        List<long[]> neighbours = new ArrayList<>();
        List<long[]> others = new ArrayList<>();
        for (int i = 0; i < tabs.length; i++) {
            long[] latencies = tabs[i].latencies(from[i], to[i]);
            each.add(latencies);
            (i < STALLED ? neighbours : others).add(latencies);
        }
        Run run = new Run(name, sorted(each), sorted(neighbours), sorted(others), startWorkers, maxWorkers, maxInDrains, wall, crowdCpu,
                processCpu, gc);
        System.out.printf("scale run '%s': %d deliveries in %d ms, p50/p99 %.1f/%.1f ms, neighbours' p99 %.1f ms"
                + " (the others' %.1f), workers inside a drain at a round's end (max) %d,"
                + " worker threads (max) %d; crowd CPU %d ms of the process's %d ms (%.0f %%); GC %d ms%n", name,
                run.latencies().length, wall / 1_000_000, ms(run.p50()), ms(run.p99()), ms(run.neighboursP99()),
                ms(run.othersP99()), maxInDrains, maxWorkers,
                crowdCpu / 1_000_000, processCpu / 1_000_000, 100.0 * crowdCpu / Math.max(1, processCpu), gc);
        return run;
    }

    /**
     * Sends {@value #FILL_BURST} big messages at a time to each stalled subscriber ({@link LiveSubscriber#send}: its
     * own buffer, no other tab gets them) until every one has a full buffer and its transport has taken
     * {@link #FILL_BYTES} or nothing for {@link #FILL_SETTLE} (see {@link #FILL_SIZE}). Counts what it sent to each in
     * {@code sent}; returns the bytes the stalled tabs' transports took meanwhile.
     */
    private static long fill(LiveSubscriber[] stalled, long[] sent) {
        LiveBoardApp.State big = new LiveBoardApp.State(-1, "f".repeat(FILL_SIZE));
        long[] writtenBefore = Arrays.stream(stalled).mapToLong(LiveSubscriber::written).toArray();
        long[] lastProgress = new long[STALLED];
        long[] writtenAtLastPoll = new long[STALLED];
        Arrays.fill(lastProgress, System.nanoTime());
        int[] bursts = new int[1];
        await("the stalled tabs' socket buffers fill up").atMost(DEADLINE.multipliedBy(3)).pollInSameThread()
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20)).until(() -> {
                    boolean settled = true;
                    long now = System.nanoTime();
                    for (int i = 0; i < STALLED; i++) {
                        long written = stalled[i].written();
                        if (written != writtenAtLastPoll[i]) {
                            lastProgress[i] = now;
                            writtenAtLastPoll[i] = written;
                        }
                        boolean full = stalled[i].buffered() == CAPACITY && ((written - writtenBefore[i]) * FILL_SIZE
                                >= FILL_BYTES || now - lastProgress[i] >= FILL_SETTLE.toNanos());
                        if (!full) {
                            settled = false;
                            for (int k = 0; k < FILL_BURST && stalled[i].buffered() < CAPACITY; k++) {
                                assertThat(stalled[i].send("fill", big)).as("stalled tab s%d is open", i).isTrue();
                                sent[i]++;
                            }
                        }
                    }
                    assertThat(++bursts[0]).as("bursts until the stalled tabs' buffers filled").isLessThan(MAX_FILL_BURSTS);
                    return settled;
                });
        long taken = 0;
        for (int i = 0; i < STALLED; i++) {
            taken += stalled[i].written() - writtenBefore[i];
        }
        return taken * FILL_SIZE;
    }

    /**
     * Runs one change callback ({@code times} publishes) on each board's context, from the publisher's thread: a
     * publish that blocked on a stalled client would fail the deadline here instead of hanging the test.
     */
    private static void publish(ExecutorService publisher, List<Board> on, int times, int size) throws Exception {
        Future<List<CompletableFuture<Long>>> submitted = publisher.submit(() -> {
            List<CompletableFuture<Long>> answers = new ArrayList<>(on.size());
            for (Board board : on) {
                answers.add(board.context.invokeAsync(() -> board.change(times, size)));
            }
            return answers;
        });
        List<CompletableFuture<Long>> answers = submitted.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
        CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
    }

    /** Waits until every tab got the event {@code targets} gives it (polled every millisecond, on this thread). */
    private void awaitDelivered(Tab[] tabs, Board[] board, long[] targets, String what) {
        try {
            await(what).atMost(DEADLINE).pollInSameThread().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1))
                    .until(() -> firstBehind(tabs, targets) < 0);
        } catch (ConditionTimeoutException late) {
            List<String> behind = new ArrayList<>();
            for (int i = 0; i < tabs.length; i++) {
                if (tabs[i].lastSequence() < targets[i]) {
                    LiveSubscriber server = board[i].tabs.get(tabs[i].name);
                    behind.add(tabs[i].name + " got " + tabs[i].lastSequence() + " of " + targets[i] + (server == null ? ""
                            : " (server: written " + server.written() + ", last written " + server.lastWritten()
                            + ", buffered " + server.buffered() + ", dropped " + server.dropped() + ", open "
                            + server.isOpen() + ")"));
                }
            }
            if (!behind.isEmpty()) {
                SseCrowd reader = crowd;
                throw new AssertionError(what + ": " + behind.size() + " tabs did not get their event within " + DEADLINE
                        + ": " + behind.subList(0, Math.min(10, behind.size())) + "; the crowd's selector failed with "
                        + (reader == null ? null : reader.failure()), late);
            }
        }
    }

    private static int firstBehind(Tab[] tabs, long[] targets) {
        for (int i = 0; i < tabs.length; i++) {
            if (tabs[i].lastSequence() < targets[i]) {
                return i;
            }
        }
        return -1;
    }

    private static long[] lastSequences(Board[] board) {
        return Arrays.stream(board).mapToLong(b -> b.live.lastSequence()).toArray();
    }

    /**
     * The executor's worker threads alive now ({@code synccontext-N}: the drains of contexts and subscribers), or,
     * with {@code inDrain}, those of them inside a live subscriber's drain right now.
     */
    private static int workerThreads(ThreadMXBean threadBean, boolean inDrain) {
        int workers = 0;
        for (ThreadInfo info : threadBean.getThreadInfo(threadBean.getAllThreadIds(), inDrain ? 24 : 0)) {
            if (info != null && WORKER.matcher(info.getThreadName()).matches() && (!inDrain
                    || Arrays.stream(info.getStackTrace()).anyMatch(f -> f.getClassName().endsWith(".LiveSubscriber")))) {
                workers++;
            }
        }
        return workers;
    }

    private static long gcMillis() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream().mapToLong(GarbageCollectorMXBean::getCollectionTime)
                .filter(time -> time > 0).sum();
    }

    private static long[] sorted(List<long[]> parts) {
        long[] all = parts.stream().flatMapToLong(Arrays::stream).toArray();
        Arrays.sort(all);
        return all;
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }
}
