package dev.synccontext.bench.capacity.load;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * One session's open tab: its event stream, and the clicks it made that wait for their update. The stream's
 * first response sets the session cookie the clicks send back; its first event makes the tab live.
 */
final class LiveTab extends Connection {

    private final SseParser events = new SseParser(this::event);
    final NonceOrder order = new NonceOrder();
    final List<Long> sentLog;
    final List<Long> receivedLog;
    String cookie;
    boolean live;
    long nextClickNanos;

    LiveTab(LoadClient client, boolean recordNonces) {
        super(client);
        sentLog = recordNonces ? new ArrayList<>() : null;
        receivedLog = recordNonces ? new ArrayList<>() : null;
    }

    @Override
    HttpResponseReader.Sink sink() {
        return new HttpResponseReader.Sink() {
            @Override
            public void headers(int status, String setCookie) {
                if (status != 200) {
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
                fail("stream ended");
            }
        };
    }

    @Override
    void connected() {
        send(client.streamRequest());
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
