package dev.synccontext.bench.capacity.load;

import java.nio.ByteBuffer;

/**
 * A keep-alive connection that carries clicks, one request at a time. Clicks of every session share a pool
 * of these, as they reach a server behind a proxy with a keep-alive upstream pool; each tab's stream holds
 * a connection of its own.
 */
final class ClickLine extends Connection {

    /** The tab whose click is in flight on this line, or {@code null} when idle. */
    LiveTab busyFor;
    private boolean ready;

    ClickLine(LoadClient client) {
        super(client);
    }

    boolean ready() {
        return ready && busyFor == null && isOpen();
    }

    @Override
    HttpResponseReader.Sink sink() {
        return new HttpResponseReader.Sink() {
            @Override
            public void headers(int status, String setCookie) {
            }

            @Override
            public void body(ByteBuffer bytes, int length) {
                bytes.position(bytes.position() + length);
            }

            @Override
            public void complete(int status) {
                LiveTab tab = busyFor;
                busyFor = null;
                if (reader.closes()) { // the server's keep-alive limit: this line takes no more requests
                    close();
                    client.lineEnded(ClickLine.this, null, "closed after its last request");
                }
                client.clickAnswered(ClickLine.this, tab, status);
            }
        };
    }

    @Override
    void connected() {
        ready = true;
        client.lineReady(this);
    }

    @Override
    void ended(String why) {
        ready = false;
        LiveTab tab = busyFor;
        busyFor = null;
        client.lineEnded(this, tab, why);
    }

    void click(LiveTab tab, byte[] request) {
        busyFor = tab;
        send(request);
    }
}
