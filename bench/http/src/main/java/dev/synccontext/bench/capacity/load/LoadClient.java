package dev.synccontext.bench.capacity.load;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * The capacity harness's load client: N live sessions of the capacity application, each one tab with an
 * open event stream, each clicking once per click period; every click carries a nonce and is timed from the
 * moment it was due to the arrival of the update carrying that nonce.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>No thread per connection: one selector thread runs every socket, timer and check of this client; the
 *       other methods hand it commands. {@link ShardedLoadClient} runs several, each with its share of the tabs.</li>
 *   <li>Nonces are unique over the shards of one {@link ShardedLoadClient}: shard {@code i} of {@code k} sends
 *       {@code i + 1}, {@code i + 1 + k}, {@code i + 1 + 2k}, ... (the server times a click by its nonce).</li>
 *   <li>Nothing is dropped from the figures: a click whose update comes out of order, twice, never (its
 *       stream ended), a click answered other than 200, a stream that ends or fails, is counted by kind in
 *       the {@link Window}.</li>
 *   <li>A tab clicks again only after its previous click's update arrived; a due click that finds the
 *       previous one still waiting is skipped and counted ({@link Window#overruns()}), not queued, so a
 *       slow server shows as overruns and latency rather than a growing backlog on the client.</li>
 * </ul>
 * Clicks travel on a pool of keep-alive connections ({@link ClickLine}), streams on one connection each;
 * over WebSockets ({@link Settings#webSocket()}) a tab clicks on its own socket.
 */
public final class LoadClient implements AutoCloseable {

    /**
     * @param server where the capacity application listens
     * @param clickPeriod how often each tab clicks
     * @param clickLines connections in the click pool
     * @param connectsInFlight streams being opened at once (the server's accept backlog is small)
     * @param recordNonces whether each tab logs the nonces it sent and received (for the harness's test)
     * @param webSocket whether each tab is a WebSocket ({@code /pad/ws}, clicks on the same socket) instead of
     *        an event stream with clicks on the pool
     */
    public record Settings(InetSocketAddress server, Duration clickPeriod, int clickLines, int connectsInFlight,
            boolean recordNonces, boolean webSocket) {
    }

    private final Settings settings;
    private final Selector selector;
    private final Thread thread;
    private final ConcurrentLinkedQueue<Runnable> commands = new ConcurrentLinkedQueue<>();
    private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(64 * 1024);
    private final byte[] streamRequest;
    private final byte[] socketHandshake;
    private final String clickPrefix;
    private final long periodNanos;
    private final int nonceStride;
    private final int nonceOffset;
    private volatile boolean closed;
    private volatile int liveTabs;

    // ---- owned by the selector thread ----
    private final List<LiveTab> tabs = new ArrayList<>();
    private final PriorityQueue<LiveTab> clickQueue =
            new PriorityQueue<>((a, b) -> Long.compare(a.nextClickNanos, b.nextClickNanos));
    private final ArrayDeque<LiveTab> waitingForLine = new ArrayDeque<>();
    private final ArrayDeque<ClickLine> idleLines = new ArrayDeque<>();
    private int lines;
    private int target;
    private int connecting;
    private int live;
    private boolean clicking = true;
    private long nonces;
    private long bytesRead;
    private Window window = new Window();

    /** One selector loop for every tab. */
    public LoadClient(Settings settings) {
        this(settings, 0, 1);
    }

    /** Shard {@code shard} of {@code shards}: its own selector thread; {@code settings} give its share. */
    LoadClient(Settings settings, int shard, int shards) {
        this.settings = settings;
        this.periodNanos = settings.clickPeriod().toNanos();
        this.nonceStride = shards;
        this.nonceOffset = shards - 1 - shard;
        String host = "Host: " + settings.server().getHostString() + ":" + settings.server().getPort() + "\r\n";
        this.streamRequest = HttpResponseReader.ascii("GET /pad/events HTTP/1.1\r\n" + host
                + "Accept: text/event-stream\r\n\r\n");
        this.socketHandshake = WebSocketFrames.handshake("/pad/ws", host);
        this.clickPrefix = host + "Content-Length: 0\r\nCookie: ";
        try {
            this.selector = Selector.open();
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        }
        this.thread = new Thread(this::loop, shards == 1 ? "capacity-load-client" : "capacity-load-client-" + shard);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /** Opens or keeps {@code sessions} tabs (the count only grows; a tab that ends is replaced). */
    public void sessions(int sessions) {
        command(() -> {
            target = Math.max(target, sessions);
            return null;
        });
    }

    /** Tabs whose stream delivered its first event. */
    public int liveTabs() {
        return liveTabs;
    }

    /** Starts or stops clicking (a stopped client lets waiting clicks finish). */
    public void clicking(boolean on) {
        command(() -> {
            clicking = on;
            return null;
        });
    }

    /** Ends the current window and starts the next one; returns the ended window's figures. */
    public Window nextWindow() {
        return command(() -> {
            Window ended = window.copy();
            window = new Window();
            return ended;
        });
    }

    /** Clicks sent and still waiting for their update, over all tabs. */
    public int waitingClicks() {
        return command(() -> tabs.stream().mapToInt(tab -> tab.order.waiting()).sum());
    }

    /** Per tab, the nonces it sent and the nonces its updates carried, in order (with {@code recordNonces}). */
    public List<List<List<Long>>> nonceLogs() {
        return command(() -> tabs.stream()
                .map(tab -> List.of(List.copyOf(tab.sentLog), List.copyOf(tab.receivedLog))).toList());
    }

    /** Clicks sent in the current window so far. */
    public long clicksSentNow() {
        return command(() -> window.clicksSent());
    }

    /** Bytes read from the server so far. */
    public long bytesRead() {
        return command(() -> bytesRead);
    }

    @Override
    public void close() {
        closed = true;
        selector.wakeup();
        try {
            thread.join(10_000);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private <T> T command(Supplier<T> command) {
        CompletableFuture<T> done = new CompletableFuture<>();
        commands.add(() -> {
            try {
                done.complete(command.get());
            } catch (RuntimeException failed) {
                done.completeExceptionally(failed);
            }
        });
        selector.wakeup();
        return done.join();
    }

    // ---- the selector thread ----

    private void loop() {
        try {
            while (!closed) {
                Runnable command;
                while ((command = commands.poll()) != null) {
                    command.run();
                }
                long now = System.nanoTime();
                openTabs();
                clickDue(now);
                long untilNext = clickQueue.isEmpty() ? 50 : (clickQueue.peek().nextClickNanos - now) / 1_000_000;
                selector.select(Math.max(1, Math.min(50, untilNext)));
                Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
                while (keys.hasNext()) {
                    SelectionKey key = keys.next();
                    keys.remove();
                    if (key.isValid()) {
                        ((Connection) key.attachment()).ready(readBuffer);
                    }
                }
            }
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        } finally {
            tabs.forEach(Connection::close);
            idleLines.forEach(Connection::close);
            for (SelectionKey key : selector.keys()) {
                ((Connection) key.attachment()).close();
            }
            try {
                selector.close();
            } catch (IOException ignored) {
                // closing
            }
        }
    }

    private void openTabs() {
        while (tabs.size() < target && connecting < settings.connectsInFlight()) {
            LiveTab tab = new LiveTab(this, settings.recordNonces(), settings.webSocket());
            tabs.add(tab);
            connecting++;
            try {
                tab.connect(selector, settings.server());
            } catch (IOException failed) {
                tab.fail("connect failed: " + failed.getMessage());
                return; // try again on the next turn
            }
        }
    }

    private void clickDue(long now) {
        while (!clickQueue.isEmpty() && clickQueue.peek().nextClickNanos <= now) {
            LiveTab tab = clickQueue.poll();
            long due = tab.nextClickNanos;
            tab.nextClickNanos = due + periodNanos;
            clickQueue.add(tab);
            if (!clicking) {
                continue;
            }
            if (tab.order.waiting() > 0 || waitingForLine.contains(tab)) {
                window.overrun();
                continue;
            }
            long nonce = ++nonces * nonceStride - nonceOffset;
            tab.sent(nonce, due);
            window.clickSent();
            if (tab.frames != null) {
                tab.clickOnSocket(nonce);
                window.sendLag(System.nanoTime() - due);
                continue;
            }
            ClickLine line = idleLines.pollFirst();
            if (line != null) {
                line.click(tab, clickRequest(tab, nonce));
                window.sendLag(System.nanoTime() - due);
            } else {
                waitingForLine.addLast(tab);
                window.lineWait();
                openLineIfAllowed();
            }
        }
    }

    private void openLineIfAllowed() {
        if (lines < settings.clickLines()) {
            lines++;
            ClickLine line = new ClickLine(this);
            try {
                line.connect(selector, settings.server());
            } catch (IOException failed) {
                lines--;
                window.error("click connect failed");
            }
        }
    }

    private byte[] clickRequest(LiveTab tab, long nonce) {
        return HttpResponseReader.ascii("POST /pad/click?nonce=" + nonce + " HTTP/1.1\r\n" + clickPrefix
                + tab.cookie + "\r\n\r\n");
    }

    byte[] streamRequest() {
        return streamRequest;
    }

    byte[] socketHandshake() {
        return socketHandshake;
    }

    void bytesRead(int count) {
        bytesRead += count;
    }

    void event(LiveTab tab, String name, String data) {
        long now = System.nanoTime();
        window.event();
        if (!tab.live) {
            tab.live = true;
            connecting--;
            liveTabs = ++live;
            if (tab.cookie == null && tab.frames == null) {
                tab.fail("stream set no session cookie");
                return;
            }
            tab.nextClickNanos = now + ThreadLocalRandom.current().nextLong(periodNanos);
            clickQueue.add(tab);
            return;
        }
        if (!"pad".equals(name)) {
            window.error("event " + name);
            return;
        }
        long nonce = SseParser.jsonLong(data, "nonce");
        if (nonce < 0) {
            window.error("update without a nonce");
        } else if (nonce > 0) {
            switch (tab.received(nonce, now)) {
                case IN_ORDER -> window.latency(tab.order.lastLatencyNanos());
                case OUT_OF_ORDER -> window.error("update out of order");
                case UNKNOWN -> window.error("update repeated or unknown");
            }
        }
    }

    void tabEnded(LiveTab tab, String why) {
        window.error("stream " + why);
        int lost = tab.order.clear();
        for (int i = 0; i < lost; i++) {
            window.error("click lost with its stream");
        }
        if (tab.live) {
            liveTabs = --live;
        } else {
            connecting--;
        }
        tabs.remove(tab);
        clickQueue.remove(tab);
        waitingForLine.remove(tab);
    }

    void lineReady(ClickLine line) {
        idleLines.addLast(line);
        nextOnLine();
    }

    void clickAnswered(ClickLine line, LiveTab tab, int status) {
        if (status != 200) {
            window.error("click answered " + status);
        }
        if (line.isOpen()) {
            idleLines.addLast(line);
        }
        nextOnLine();
    }

    void lineEnded(ClickLine line, LiveTab tab, String why) {
        lines--;
        idleLines.remove(line);
        if (tab != null) {
            window.error("click line " + why);
        }
        if (!waitingForLine.isEmpty()) {
            openLineIfAllowed();
        }
    }

    private void nextOnLine() {
        while (!waitingForLine.isEmpty() && !idleLines.isEmpty()) {
            ClickLine line = idleLines.pollFirst();
            if (!line.ready()) {
                continue;
            }
            LiveTab tab = waitingForLine.pollFirst();
            if (tab.isOpen()) {
                line.click(tab, clickRequest(tab, tab.order.newestNonce()));
                window.sendLag(System.nanoTime() - tab.order.newestDueNanos());
            } else {
                idleLines.addFirst(line);
            }
        }
        if (!waitingForLine.isEmpty()) {
            openLineIfAllowed();
        }
    }
}
