package dev.synccontext.cluster;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;

/**
 * Many browser tabs with an {@code EventSource} each, on one selector thread (a thread per stream would cost
 * the 2-core machine more than the nodes under test). A tab is one session (its {@code SESSION} and
 * {@code route} cookies) and the streams it opened one after another on {@code GET /live/events}; like an
 * {@code EventSource}, it reconnects at once when a {@code 200} stream ends, sending the id of the last event
 * it received as {@code Last-Event-ID}, and gives up on any other status. Everything a stream received is
 * stamped ({@link System#nanoTime()}) on the selector thread: the events with their ids, and how the stream
 * ended: with chunked encoding's last chunk (the server completed the response) or by the connection's end
 * without it (cut).
 */
final class SseTabs implements AutoCloseable {

    /** Connections one tab may open in all, so a node that keeps ending streams at once cannot loop a tab forever. */
    static final int MAX_STREAMS = 5;

    /** One event: its {@code id} (none for {@code going-away}), name, data, and when it arrived. */
    record Event(@Nullable String id, String name, String data, long at) {
    }

    /** One response of the event stream. */
    static final class Stream {
        final @Nullable String lastEventIdSent;
        final long openedAt;
        volatile int status = -1;
        final List<Event> events = new CopyOnWriteArrayList<>();
        volatile long goingAwayAt = -1;
        volatile long endedAt = -1;
        /** Ended by the response's last chunk (completed by the server), not by the connection's end alone. */
        volatile boolean completed;
        /** The body of a response that is not an event stream (not 200), for the failure message. */
        final StringBuffer refusal = new StringBuffer();

        Stream(@Nullable String lastEventIdSent, long openedAt) {
            this.lastEventIdSent = lastEventIdSent;
            this.openedAt = openedAt;
        }

        boolean ended() {
            return endedAt >= 0;
        }

        @Nullable Event first() {
            return events.isEmpty() ? null : events.get(0);
        }

        @Override
        public String toString() {
            return "stream(status " + status + ", sent Last-Event-ID " + lastEventIdSent + ", events " + events
                    + (endedAt < 0 ? ", open" : completed ? ", completed" : ", cut") + (refusal.length() == 0 ? "" : ", body " + refusal) + ")";
        }
    }

    /** One tab: its session's cookies and its streams, oldest first. */
    static final class Tab {
        final String route;
        final String session;
        final List<Stream> streams = new CopyOnWriteArrayList<>();
        /** The id of the last event received with one (selector thread writes it). */
        volatile @Nullable String lastEventId;

        Tab(String route, String session) {
            this.route = route;
            this.session = session;
        }

        Stream stream(int index) {
            return streams.get(index);
        }

        Stream last() {
            return streams.get(streams.size() - 1);
        }

        @Override
        public String toString() {
            return "tab(route " + route + ", " + streams + ")";
        }

        /** The Spring Session id: the servlet side's {@code SESSION} cookie is its Base64. */
        String sessionId() {
            return new String(java.util.Base64.getDecoder().decode(session), StandardCharsets.UTF_8);
        }
    }

    /** A connection's parsing state; touched by the selector thread only. */
    private static final class Connection {
        final Tab tab;
        final Stream stream;
        final SocketChannel channel;
        final ByteArrayOutputStream head = new ByteArrayOutputStream();
        boolean inBody;
        boolean chunked;
        /** Chunked decoding: the size line being read, the bytes left in the chunk, its CRLF still to skip. */
        final StringBuilder sizeLine = new StringBuilder();
        long chunkLeft = -1;
        int crlfLeft;
        boolean inTrailer;
        final StringBuilder trailerLine = new StringBuilder();
        /** Event-stream text not yet ended by a blank line. */
        final StringBuilder pending = new StringBuilder();

        Connection(Tab tab, Stream stream, SocketChannel channel) {
            this.tab = tab;
            this.stream = stream;
            this.channel = channel;
        }
    }

    private final Selector selector;
    private final InetSocketAddress server;
    private final ConcurrentLinkedQueue<Tab> toOpen = new ConcurrentLinkedQueue<>();
    private final List<Connection> open = new ArrayList<>();
    private final Thread thread = new Thread(this::loop, "sse-tabs");
    private volatile boolean closed;
    private volatile @Nullable Throwable failure;

    SseTabs(int port) {
        try {
            this.selector = Selector.open();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.server = new InetSocketAddress("127.0.0.1", port);
        thread.setDaemon(true);
        thread.start();
    }

    /** Opens the tab's first stream (from the selector thread, soon). */
    void open(Tab tab) {
        toOpen.add(tab);
        selector.wakeup();
    }

    /** What broke the selector thread, if anything did (a test asserts it is null). */
    @Nullable Throwable failure() {
        return failure;
    }

    private void loop() {
        ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
        try {
            while (!closed) {
                selector.select(100);
                for (Tab tab; (tab = toOpen.poll()) != null; ) {
                    connect(tab);
                }
                for (SelectionKey key : selector.selectedKeys()) {
                    Connection connection = (Connection) key.attachment();
                    long now = System.nanoTime();
                    buffer.clear();
                    int read;
                    try {
                        read = connection.channel.read(buffer);
                    } catch (IOException reset) {
                        read = -1;
                    }
                    if (read < 0) {
                        end(connection, now);
                    } else {
                        buffer.flip();
                        received(connection, buffer, now);
                    }
                }
                selector.selectedKeys().clear();
            }
        } catch (IOException | RuntimeException broken) {
            if (!closed) {
                failure = broken;
            }
        }
    }

    private void connect(Tab tab) throws IOException {
        String lastEventId = tab.lastEventId;
        Stream stream = new Stream(lastEventId, System.nanoTime());
        tab.streams.add(stream);
        SocketChannel channel = SocketChannel.open(server); // a loopback connect completes at once
        String request = "GET " + Nginx.EVENT_STREAMS + " HTTP/1.1\r\nHost: " + server.getHostString() + ":"
                + server.getPort() + "\r\nAccept: text/event-stream\r\nCache-Control: no-cache\r\nCookie: route="
                + tab.route + "; SESSION=" + tab.session + "\r\n"
                + (lastEventId == null ? "" : "Last-Event-ID: " + lastEventId + "\r\n") + "Connection: close\r\n\r\n";
        channel.write(ByteBuffer.wrap(request.getBytes(StandardCharsets.US_ASCII))); // a few hundred bytes: all fit
        channel.configureBlocking(false);
        Connection connection = new Connection(tab, stream, channel);
        channel.register(selector, SelectionKey.OP_READ, connection);
        open.add(connection);
    }

    private void received(Connection c, ByteBuffer bytes, long now) throws IOException {
        while (bytes.hasRemaining() && !c.stream.ended()) {
            if (!c.inBody) {
                c.head.write(bytes.get());
                if (endsWithBlankLine(c.head)) {
                    head(c);
                }
            } else if (!c.chunked) {
                text(c, bytes, bytes.remaining(), now);
            } else if (c.crlfLeft > 0) {
                bytes.get();
                c.crlfLeft--;
            } else if (c.inTrailer) {
                char ch = (char) bytes.get();
                if (ch == '\n') {
                    if (c.trailerLine.toString().trim().isEmpty()) {
                        c.stream.completed = true;
                        end(c, now);
                    }
                    c.trailerLine.setLength(0);
                } else {
                    c.trailerLine.append(ch);
                }
            } else if (c.chunkLeft > 0) {
                int n = (int) Math.min(c.chunkLeft, bytes.remaining());
                text(c, bytes, n, now);
                c.chunkLeft -= n;
                if (c.chunkLeft == 0) {
                    c.crlfLeft = 2;
                    c.chunkLeft = -1;
                }
            } else {
                char ch = (char) bytes.get();
                if (ch == '\n') {
                    String size = c.sizeLine.toString().trim();
                    int extension = size.indexOf(';');
                    c.chunkLeft = Long.parseLong(extension < 0 ? size : size.substring(0, extension), 16);
                    c.sizeLine.setLength(0);
                    if (c.chunkLeft == 0) {
                        c.inTrailer = true;
                    }
                } else {
                    c.sizeLine.append(ch);
                }
            }
        }
    }

    private static boolean endsWithBlankLine(ByteArrayOutputStream head) {
        byte[] b = head.toByteArray();
        int n = b.length;
        return n >= 4 && b[n - 4] == '\r' && b[n - 3] == '\n' && b[n - 2] == '\r' && b[n - 1] == '\n';
    }

    private static void head(Connection c) {
        String[] lines = c.head.toString(StandardCharsets.US_ASCII).split("\r\n");
        c.stream.status = Integer.parseInt(lines[0].split(" ")[1]);
        for (String line : lines) {
            if (line.toLowerCase(java.util.Locale.ROOT).replace(" ", "").equals("transfer-encoding:chunked")) {
                c.chunked = true;
            }
        }
        c.inBody = true;
    }

    /** {@code n} bytes of the event stream's text: appended, and every event a blank line ends is recorded. */
    private static void text(Connection c, ByteBuffer bytes, int n, long now) {
        byte[] chunk = new byte[n];
        bytes.get(chunk);
        if (c.stream.status != 200) {
            c.stream.refusal.append(new String(chunk, StandardCharsets.UTF_8));
            return;
        }
        c.pending.append(new String(chunk, StandardCharsets.UTF_8)); // the tests' events are ASCII
        for (int end; (end = c.pending.indexOf("\n\n")) >= 0; ) {
            String frame = c.pending.substring(0, end);
            c.pending.delete(0, end + 2);
            event(c, frame, now);
        }
    }

    private static void event(Connection c, String frame, long now) {
        String id = null;
        String name = "message";
        StringBuilder data = new StringBuilder();
        for (String line : frame.split("\n")) {
            int colon = line.indexOf(':');
            if (colon == 0) {
                continue; // a comment
            }
            String field = colon < 0 ? line : line.substring(0, colon);
            String value = colon < 0 ? "" : line.substring(colon + 1);
            if (value.startsWith(" ")) {
                value = value.substring(1);
            }
            switch (field) {
                case "id" -> id = value;
                case "event" -> name = value;
                case "data" -> data.append(data.length() == 0 ? "" : "\n").append(value);
                default -> { }
            }
        }
        c.stream.events.add(new Event(id, name, data.toString(), now));
        if (id != null) {
            c.tab.lastEventId = id;
        }
        if (name.equals("going-away") && c.stream.goingAwayAt < 0) {
            c.stream.goingAwayAt = now;
        }
    }

    /** The stream's end: stamped, its connection closed, and, as an {@code EventSource} does after a 200, a reconnect. */
    private void end(Connection c, long now) throws IOException {
        if (!c.stream.ended()) {
            c.stream.endedAt = now;
        }
        SelectionKey key = c.channel.keyFor(selector);
        if (key != null) {
            key.cancel();
        }
        c.channel.close();
        open.remove(c);
        if (!closed && c.stream.status == 200 && c.tab.streams.size() < MAX_STREAMS) {
            connect(c.tab);
        }
    }

    @Override
    public void close() {
        closed = true;
        selector.wakeup();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Connection connection : List.copyOf(open)) {
            try {
                connection.channel.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        try {
            selector.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
