package dev.synccontext.cluster;

import dev.synccontext.testing.SseConnections;
import dev.synccontext.testing.SseDecoder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;

/**
 * Many browser tabs with an {@code EventSource} each, read on one selector thread ({@link SseConnections}). A tab
 * is one session (its {@code SESSION} and {@code route} cookies) and the streams it opened one after another on
 * {@code GET /live/events}; like an {@code EventSource}, it reconnects at once when a {@code 200} stream ends,
 * sending the id of the last event it received as {@code Last-Event-ID}, and gives up on any other status.
 * Everything a stream received ({@link SseDecoder}) is stamped ({@link System#nanoTime()}) on the selector thread:
 * the events with their ids, and how the stream ended: with chunked encoding's last chunk (the server completed
 * the response) or by the connection's end without it (cut).
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
                    + (endedAt < 0 ? ", open" : completed ? ", completed" : ", cut")
                    + (refusal.length() == 0 ? "" : ", body " + refusal) + ")";
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

    private final SseConnections connections;
    private final InetSocketAddress server;
    private volatile boolean closed;

    SseTabs(int port) {
        try {
            this.connections = new SseConnections(SseConnections.daemonThreads("sse-tabs"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.server = new InetSocketAddress("127.0.0.1", port);
    }

    /** Opens a stream of the tab: its first, or a reconnect with the last event id it received. */
    void open(Tab tab) {
        try {
            connect(tab);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What broke the selector thread, if anything did (a test asserts it is null). */
    @Nullable Throwable failure() {
        return connections.failure();
    }

    private void connect(Tab tab) throws IOException {
        String lastEventId = tab.lastEventId;
        Stream stream = new Stream(lastEventId, System.nanoTime());
        tab.streams.add(stream);
        String request = "GET " + Nginx.EVENT_STREAMS + " HTTP/1.1\r\nHost: " + server.getHostString() + ":"
                + server.getPort() + "\r\nAccept: text/event-stream\r\nCache-Control: no-cache\r\nCookie: route="
                + tab.route + "; SESSION=" + tab.session + "\r\n"
                + (lastEventId == null ? "" : "Last-Event-ID: " + lastEventId + "\r\n") + "Connection: close\r\n\r\n";
        connections.open(server, request, reader(tab, stream));
    }

    /** Reads one stream of a tab: its events, then, as an {@code EventSource} does after a 200, a reconnect. */
    private SseDecoder.Listener reader(Tab tab, Stream stream) {
        return new SseDecoder.Listener() {
            @Override
            public void head(int status, String head) {
                stream.status = status;
            }

            @Override
            public void event(@Nullable String id, String name, byte[] data, int length, long now) {
                stream.events.add(new Event(id, name, new String(data, 0, length, StandardCharsets.UTF_8), now));
                if (id != null) {
                    tab.lastEventId = id;
                }
                if (name.equals("going-away") && stream.goingAwayAt < 0) {
                    stream.goingAwayAt = now;
                }
            }

            @Override
            public void refusal(String text) {
                stream.refusal.append(text);
            }

            @Override
            public void end(boolean completed, long now) {
                stream.completed = completed;
                stream.endedAt = now;
                if (!closed && stream.status == 200 && tab.streams.size() < MAX_STREAMS) {
                    open(tab);
                }
            }
        };
    }

    @Override
    public void close() {
        closed = true;
        try {
            connections.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
