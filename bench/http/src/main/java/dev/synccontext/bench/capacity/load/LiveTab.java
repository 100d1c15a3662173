package dev.synccontext.bench.capacity.load;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * One session's open tab: its event stream, and the clicks it made that wait for their update. The stream's
 * first response sets the session cookie the clicks send back; its first event makes the tab live.
 *
 * <p>Over a WebSocket ({@link #frames} not null), the socket is the session: its messages are the updates,
 * and a click is a text frame on the same socket; its first message (the snapshot) makes the tab live.
 */
final class LiveTab extends Connection {

    private final SseParser events = new SseParser(this::event);
    /** The WebSocket's frames, or null for a tab on Server-Sent Events. */
    final WebSocketFrames frames;
    final NonceOrder order = new NonceOrder();
    final List<Long> sentLog;
    final List<Long> receivedLog;
    String cookie;
    boolean live;
    long nextClickNanos;

    LiveTab(LoadClient client, boolean recordNonces, boolean webSocket) {
        super(client);
        frames = webSocket ? new WebSocketFrames(new WebSocketFrames.Sink() {
            @Override
            public void text(String message) {
                event(SseParser.jsonString(message, "event"), message);
            }

            @Override
            public void ping(byte[] payload) {
                send(WebSocketFrames.pong(payload));
            }

            @Override
            public void closed(String why) {
                fail(why);
            }
        }) : null;
        sentLog = recordNonces ? new ArrayList<>() : null;
        receivedLog = recordNonces ? new ArrayList<>() : null;
    }

    @Override
    HttpResponseReader.Sink sink() {
        return new HttpResponseReader.Sink() {
            @Override
            public void headers(int status, String setCookie) {
                if (status != (frames == null ? 200 : 101)) {
                    fail("stream answered " + status);
                    return;
                }
                cookie = setCookie;
            }

            @Override
            public void body(ByteBuffer bytes, int length) {
                events.feed(bytes, length);
            }

            @Override
            public void complete(int status) {
                if (status != 101 || frames == null) {
                    fail("stream ended");
                }
            }
        };
    }

    @Override
    void connected() {
        send(frames == null ? client.streamRequest() : client.socketHandshake());
    }

    @Override
    void received(ByteBuffer bytes) {
        reader.feed(bytes);
        if (frames != null && reader.upgraded()) {
            frames.feed(bytes);
        }
    }

    /** Sends a click on the tab's own WebSocket. */
    void clickOnSocket(long nonce) {
        send(WebSocketFrames.text("click " + nonce));
    }

    @Override
    void ended(String why) {
        client.tabEnded(this, why);
    }

    private void event(String name, String data) {
        client.event(this, name, data);
    }

    void sent(long nonce, long dueNanos) {
        order.sent(nonce, dueNanos);
        if (sentLog != null) {
            sentLog.add(nonce);
        }
    }

    NonceOrder.Verdict received(long nonce, long nowNanos) {
        if (receivedLog != null) {
            receivedLog.add(nonce);
        }
        return order.received(nonce, nowNanos);
    }
}
