package dev.synccontext.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadFactory;
import org.jspecify.annotations.Nullable;

/**
 * Many SSE tabs on one selector thread (a thread per connection would cost the 2-core machine more than the
 * server under test). Each tab sends {@code GET path} over HTTP/1.1 without a cookie (so each is a new session,
 * with its own context), keeps the session cookie it is given, decodes the chunked response and its events as
 * bytes arrive, and keeps, per event, its sequence number (the id's part after the epoch). It also keeps the
 * selector's clock when its snapshot, its {@code going-away} event and the end of its stream (the last chunk,
 * or the connection's end) arrived, and whether the going-away was the last event.
 *
 * <p>Timed ({@link #SseCrowd(int, ThreadFactory, boolean)}): an event that is not a snapshot must carry
 * {@code "publishedAt"} ({@link System#nanoTime()} at publication, so the server must run in this JVM), and
 * its delivery latency is the selector's clock when the bytes were read minus that.
 *
 * <p>What a tab saw is written by the selector thread only and read by the test under the tab's monitor or
 * through volatile fields ({@link Tab#lastSequence()}, the times), for the test to wait on. For one tab read
 * by {@code java.net.http}, see {@link SseClient}; for one that never reads, {@link StalledSocket}.
 */
public final class SseCrowd implements AutoCloseable {

    private static final byte[] PUBLISHED_AT = "\"publishedAt\":".getBytes(StandardCharsets.US_ASCII);

    /** One tab: its connection, its decoder's state (selector thread only) and what it saw (under its monitor). */
    public static final class Tab {

        public final String name;
        private final boolean timed;
        private final SocketChannel channel;

        // ---- the decoder (selector thread only) ----
        private final StringBuilder head = new StringBuilder();
        private boolean inBody;
        private boolean chunked;
        /** Bytes left in the current chunk; -1 while reading a chunk-size line, -2 while skipping its CRLF. */
        private long chunkLeft = -1;
        private final StringBuilder chunkSize = new StringBuilder();
        private int crlfLeft;
        private byte[] line = new byte[256];
        private int lineLength;
        private @Nullable String id;
        private String event = "message";
        private long publishedAt = -1;

        // ---- what it saw (under this) ----
        private long[] sequences = new long[64];
        private long[] latencies = new long[64];
        private int count;
        private @Nullable String epoch;
        private @Nullable String problem;

        private volatile long lastSequence = -1;
        private volatile @Nullable String cookie;
        private volatile boolean ended;
        private volatile long snapshotAt = -1;
        private volatile long goingAwayAt = -1;
        private volatile boolean eventAfterGoingAway;
        private volatile long endedAt = -1;

        private Tab(String name, SocketChannel channel, boolean timed) {
            this.name = name;
            this.channel = channel;
            this.timed = timed;
        }

        /** When ({@link System#nanoTime()}) its snapshot event arrived; -1 before. */
        public long snapshotAt() {
            return snapshotAt;
        }

        /** When its {@code going-away} event arrived; -1 before. */
        public long goingAwayAt() {
            return goingAwayAt;
        }

        /** When its stream ended (the last chunk or the connection's end); -1 before. */
        public long endedAt() {
            return endedAt;
        }

        /** The going-away came, and no event followed it. */
        public boolean goingAwayLast() {
            return goingAwayAt >= 0 && !eventAfterGoingAway;
        }

        private void end(long now) {
            if (endedAt < 0) {
                endedAt = now;
            }
            ended = true;
        }

        /** The sequence number of the last event received; -1 before the first. */
        public long lastSequence() {
            return lastSequence;
        }

        /** The {@code JSESSIONID} the server gave this tab (its session), once the response's head arrived. */
        public @Nullable String cookie() {
            return cookie;
        }

        /** Whether the stream ended (the last chunk or the connection's end). */
        public boolean ended() {
            return ended;
        }

        /** The sequence numbers of every event received, in arrival order. */
        public synchronized long[] sequences() {
            return Arrays.copyOf(sequences, count);
        }

        /** The latencies (nanoseconds) of the events received with a sequence number in {@code (after, upTo]}. */
        public synchronized long[] latencies(long after, long upTo) {
            long[] picked = new long[count];
            int n = 0;
            for (int i = 0; i < count; i++) {
                if (sequences[i] > after && sequences[i] <= upTo && latencies[i] >= 0) {
                    picked[n++] = latencies[i];
                }
            }
            return Arrays.copyOf(picked, n);
        }

        /** What was wrong with the stream (a status, an id without a sequence, another epoch, no timestamp); null if nothing. */
        public synchronized @Nullable String problem() {
            return problem;
        }

        private synchronized void received(String epochOfId, long sequence, long latency) {
            if (count == sequences.length) {
                sequences = Arrays.copyOf(sequences, count * 2);
                latencies = Arrays.copyOf(latencies, count * 2);
            }
            if (epoch == null) {
                epoch = epochOfId;
            } else if (!epoch.equals(epochOfId)) {
                problem("event " + sequence + " has epoch " + epochOfId + ", the first had " + epoch);
            }
            sequences[count] = sequence;
            latencies[count] = latency;
            count++;
            lastSequence = sequence;
        }

        private synchronized void problem(String what) {
            if (problem == null) {
                problem = what;
            }
        }

        /** Decodes {@code length} bytes read at {@code now}: the response's head, then chunks, then events. */
        private void decode(byte[] bytes, int length, long now) {
            int at = 0;
            while (at < length) {
                if (!inBody) {
                    at = head(bytes, at, length);
                } else if (!chunked) {
                    sse(bytes, at, length, now);
                    at = length;
                } else if (chunkLeft == -1) {
                    at = chunkSizeLine(bytes, at, length, now);
                } else if (chunkLeft == -2) {
                    at++; // the CRLF after a chunk's data
                    if (--crlfLeft == 0) {
                        chunkLeft = -1;
                    }
                } else {
                    int take = (int) Math.min(chunkLeft, length - at);
                    sse(bytes, at, at + take, now);
                    at += take;
                    chunkLeft -= take;
                    if (chunkLeft == 0) {
                        chunkLeft = -2;
                        crlfLeft = 2;
                    }
                }
            }
        }

        private int head(byte[] bytes, int at, int length) {
            while (at < length && !inBody) {
                head.append((char) bytes[at++]);
                int n = head.length();
                if (n >= 4 && head.charAt(n - 1) == '\n' && head.charAt(n - 2) == '\r' && head.charAt(n - 3) == '\n') {
                    inBody = true;
                    String text = head.toString();
                    if (!text.startsWith("HTTP/1.1 200")) {
                        problem("the response began " + text.lines().findFirst().orElse(""));
                    }
                    chunked = text.toLowerCase(java.util.Locale.ROOT).contains("transfer-encoding: chunked");
                    int session = text.indexOf("JSESSIONID=");
                    if (session >= 0) {
                        int end = session + "JSESSIONID=".length();
                        while (end < text.length() && text.charAt(end) != ';' && text.charAt(end) != '\r') {
                            end++;
                        }
                        cookie = text.substring(session + "JSESSIONID=".length(), end);
                    }
                }
            }
            return at;
        }

        private int chunkSizeLine(byte[] bytes, int at, int length, long now) {
            while (at < length) {
                char c = (char) bytes[at++];
                if (c == '\n') {
                    String hex = chunkSize.toString().trim();
                    int extension = hex.indexOf(';');
                    long size = Long.parseLong(extension >= 0 ? hex.substring(0, extension) : hex, 16);
                    chunkSize.setLength(0);
                    if (size == 0) {
                        end(now); // the last chunk: the server completed the stream
                        chunkLeft = Long.MAX_VALUE; // whatever follows (trailers) is not an event
                    } else {
                        chunkLeft = size;
                    }
                    return at;
                }
                chunkSize.append(c);
            }
            return at;
        }

        private void sse(byte[] bytes, int from, int to, long now) {
            if (ended) {
                return;
            }
            for (int i = from; i < to; i++) {
                byte b = bytes[i];
                if (b != '\n') {
                    if (lineLength == line.length) {
                        line = Arrays.copyOf(line, line.length * 2);
                    }
                    line[lineLength++] = b;
                    continue;
                }
                int end = lineLength > 0 && line[lineLength - 1] == '\r' ? lineLength - 1 : lineLength;
                lineLength = 0;
                if (end == 0) {
                    dispatch(now);
                } else if (startsWith(line, end, "id:")) {
                    id = new String(line, 3, end - 3, StandardCharsets.UTF_8);
                } else if (startsWith(line, end, "event:")) {
                    event = new String(line, 6, end - 6, StandardCharsets.UTF_8);
                } else if (startsWith(line, end, "data:")) {
                    publishedAt = publishedAt(line, end);
                }
            }
        }

        private void dispatch(long now) {
            boolean snapshot = event.equals("snapshot");
            if (goingAwayAt >= 0) {
                eventAfterGoingAway = true;
            }
            if (snapshot && snapshotAt < 0) {
                snapshotAt = now;
            } else if (event.equals("going-away") && goingAwayAt < 0) {
                goingAwayAt = now;
            }
            String eventId = id;
            if (eventId != null) {
                int dash = eventId.lastIndexOf('-');
                try {
                    long sequence = Long.parseLong(eventId.substring(dash + 1));
                    if (timed && !snapshot && publishedAt < 0) {
                        problem("event " + eventId + " (" + event + ") carries no publishedAt");
                    }
                    received(eventId.substring(0, Math.max(dash, 0)), sequence,
                            snapshot || publishedAt < 0 ? -1 : now - publishedAt);
                } catch (NumberFormatException | StringIndexOutOfBoundsException garbage) {
                    problem("the id " + eventId + " has no sequence number");
                }
            }
            id = null;
            event = "message";
            publishedAt = -1;
        }

        private static boolean startsWith(byte[] bytes, int length, String prefix) {
            if (length < prefix.length()) {
                return false;
            }
            for (int i = 0; i < prefix.length(); i++) {
                if (bytes[i] != prefix.charAt(i)) {
                    return false;
                }
            }
            return true;
        }

        /** The number after {@code "publishedAt":} in a data line; -1 if there is none. */
        private static long publishedAt(byte[] bytes, int length) {
            outer:
            for (int i = 0; i + PUBLISHED_AT.length <= length; i++) {
                for (int j = 0; j < PUBLISHED_AT.length; j++) {
                    if (bytes[i + j] != PUBLISHED_AT[j]) {
                        continue outer;
                    }
                }
                int at = i + PUBLISHED_AT.length;
                boolean negative = at < length && bytes[at] == '-';
                if (negative) {
                    at++;
                }
                long value = 0;
                int digits = 0;
                for (; at < length && bytes[at] >= '0' && bytes[at] <= '9'; at++, digits++) {
                    value = value * 10 + (bytes[at] - '0');
                }
                // nanoTime may be negative; a latency is a difference, so the sign is all that matters
                return digits == 0 ? -1 : negative ? -value : value;
            }
            return -1;
        }
    }

    private final Selector selector = Selector.open();
    private final ConcurrentLinkedQueue<Tab> toRegister = new ConcurrentLinkedQueue<>();
    private final List<Tab> tabs = new ArrayList<>();
    private final Thread thread;
    private final InetSocketAddress server;
    private final boolean timed;
    private volatile boolean closed;
    private volatile @Nullable Throwable failure;

    /** An untimed crowd for {@code 127.0.0.1:port}, its selector on a daemon thread of its own. */
    public SseCrowd(int port) throws IOException {
        this(port, runnable -> {
            Thread thread = new Thread(runnable, "sse-crowd");
            thread.setDaemon(true);
            return thread;
        }, false);
    }

    /**
     * A crowd for {@code 127.0.0.1:port}, its selector on a thread of {@code threads} (so that a test's thread
     * guard watches it); {@code timed}: every event but a snapshot must carry {@code "publishedAt"}.
     */
    public SseCrowd(int port, ThreadFactory threads, boolean timed) throws IOException {
        this.server = new InetSocketAddress("127.0.0.1", port);
        this.timed = timed;
        this.thread = threads.newThread(this::loop);
        thread.start();
    }

    /**
     * Opens one tab per name ({@code GET pathPrefix + name}; blocking connects, immediate on a local port, so
     * open a batch no bigger than the server's accept backlog before waiting for it) and sends each request.
     */
    public List<Tab> open(String pathPrefix, List<String> names) throws IOException {
        List<Tab> opened = new ArrayList<>();
        for (String name : names) {
            opened.add(connect(name, pathPrefix + name));
        }
        return registered(opened);
    }

    /** Opens {@code count} tabs that all {@code GET path}, named by their number in this crowd (batches as above). */
    public List<Tab> open(String path, int count) throws IOException {
        int first = tabs().size();
        List<Tab> opened = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            opened.add(connect(String.valueOf(first + i), path));
        }
        return registered(opened);
    }

    private Tab connect(String name, String path) throws IOException {
        byte[] request = ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + server.getPort()
                + "\r\nAccept: text/event-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        SocketChannel channel = SocketChannel.open(server);
        channel.write(ByteBuffer.wrap(request));
        channel.configureBlocking(false);
        return new Tab(name, channel, timed);
    }

    private List<Tab> registered(List<Tab> opened) {
        toRegister.addAll(opened);
        synchronized (tabs) {
            tabs.addAll(opened);
        }
        selector.wakeup();
        return opened;
    }

    /** Every tab opened so far. */
    public List<Tab> tabs() {
        synchronized (tabs) {
            return List.copyOf(tabs);
        }
    }

    /** Why the selector thread stopped early; null while it runs (or after a clean close). */
    public @Nullable Throwable failure() {
        return failure;
    }

    /** The selector thread's id (to read its CPU time). */
    public long threadId() {
        return thread.getId();
    }

    private void loop() {
        ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
        try {
            while (!closed) {
                selector.select(100);
                for (Tab tab; (tab = toRegister.poll()) != null; ) {
                    tab.channel.register(selector, SelectionKey.OP_READ, tab);
                }
                for (SelectionKey key : selector.selectedKeys()) {
                    Tab tab = (Tab) key.attachment();
                    buffer.clear();
                    int read;
                    try {
                        read = tab.channel.read(buffer);
                    } catch (IOException reset) {
                        read = -1;
                    }
                    long now = System.nanoTime();
                    if (read < 0) {
                        key.cancel();
                        tab.channel.close();
                        tab.end(now);
                        continue;
                    }
                    tab.decode(buffer.array(), read, now);
                }
                selector.selectedKeys().clear();
            }
        } catch (IOException | RuntimeException broken) {
            if (!closed) {
                failure = broken;
            }
        }
    }

    /** Stops the selector thread and closes every connection. */
    @Override
    public void close() throws IOException {
        closed = true;
        selector.wakeup();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Tab tab : tabs()) {
            tab.channel.close();
        }
        selector.close();
    }
}
