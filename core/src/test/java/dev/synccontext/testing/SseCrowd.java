package dev.synccontext.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import org.jspecify.annotations.Nullable;

/**
 * Many SSE tabs on one selector thread ({@link SseConnections}). Each tab sends {@code GET path} over HTTP/1.1
 * without a cookie (so each is a new session, with its own context), keeps the session cookie it is given, and
 * keeps, per event its {@link SseDecoder} reads, its sequence number (the id's part after the epoch). It also keeps the
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

    /** One tab: what it saw, written by the selector thread (its decoder's listener), read by the test. */
    public static final class Tab implements SseDecoder.Listener {

        public final String name;
        private final boolean timed;

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

        private Tab(String name, boolean timed) {
            this.name = name;
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

        @Override
        public void head(int status, String head) {
            if (status != 200) {
                problem("the response began " + head.lines().findFirst().orElse(""));
            }
            int session = head.indexOf("JSESSIONID=");
            if (session >= 0) {
                int end = session + "JSESSIONID=".length();
                while (end < head.length() && head.charAt(end) != ';' && head.charAt(end) != '\r') {
                    end++;
                }
                cookie = head.substring(session + "JSESSIONID=".length(), end);
            }
        }

        @Override
        public void event(@Nullable String id, String event, byte[] data, int length, long now) {
            boolean snapshot = event.equals("snapshot");
            if (goingAwayAt >= 0) {
                eventAfterGoingAway = true;
            }
            if (snapshot && snapshotAt < 0) {
                snapshotAt = now;
            } else if (event.equals("going-away") && goingAwayAt < 0) {
                goingAwayAt = now;
            }
            if (id == null) {
                return;
            }
            long publishedAt = publishedAt(data, length);
            int dash = id.lastIndexOf('-');
            try {
                long sequence = Long.parseLong(id.substring(dash + 1));
                if (timed && !snapshot && publishedAt < 0) {
                    problem("event " + id + " (" + event + ") carries no publishedAt");
                }
                received(id.substring(0, Math.max(dash, 0)), sequence,
                        snapshot || publishedAt < 0 ? -1 : now - publishedAt);
            } catch (NumberFormatException | StringIndexOutOfBoundsException garbage) {
                problem("the id " + id + " has no sequence number");
            }
        }

        @Override
        public void end(boolean completed, long now) {
            if (endedAt < 0) {
                endedAt = now;
            }
            ended = true;
        }

        /** The number after {@code "publishedAt":} in the data; -1 if there is none. */
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

    private final SseConnections connections;
    private final List<Tab> tabs = new ArrayList<>();
    private final InetSocketAddress server;
    private final boolean timed;

    /** An untimed crowd for {@code 127.0.0.1:port}, its selector on a daemon thread of its own. */
    public SseCrowd(int port) throws IOException {
        this(port, SseConnections.daemonThreads("sse-crowd"), false);
    }

    /**
     * A crowd for {@code 127.0.0.1:port}, its selector on a thread of {@code threads} (so that a test's thread
     * guard watches it); {@code timed}: every event but a snapshot must carry {@code "publishedAt"}.
     */
    public SseCrowd(int port, ThreadFactory threads, boolean timed) throws IOException {
        this.server = new InetSocketAddress("127.0.0.1", port);
        this.timed = timed;
        this.connections = new SseConnections(threads);
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
        return opened;
    }

    /** Opens {@code count} tabs that all {@code GET path}, named by their number in this crowd (batches as above). */
    public List<Tab> open(String path, int count) throws IOException {
        int first = tabs().size();
        List<Tab> opened = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            opened.add(connect(String.valueOf(first + i), path));
        }
        return opened;
    }

    private Tab connect(String name, String path) throws IOException {
        Tab tab = new Tab(name, timed);
        connections.open(server, "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + server.getPort()
                + "\r\nAccept: text/event-stream\r\n\r\n", tab);
        synchronized (tabs) {
            tabs.add(tab);
        }
        return tab;
    }

    /** Every tab opened so far. */
    public List<Tab> tabs() {
        synchronized (tabs) {
            return List.copyOf(tabs);
        }
    }

    /** Why the selector thread stopped early; null while it runs (or after a clean close). */
    public @Nullable Throwable failure() {
        return connections.failure();
    }

    /** The selector thread's id (to read its CPU time). */
    public long threadId() {
        return connections.threadId();
    }

    /** Stops the selector thread and closes every connection. */
    @Override
    public void close() throws IOException {
        connections.close();
    }
}
