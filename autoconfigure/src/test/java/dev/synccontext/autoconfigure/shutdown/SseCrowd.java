package dev.synccontext.autoconfigure.shutdown;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Many SSE clients on one selector thread (a thread per connection would cost the 2-core machine more than the
 * server under test): each sends {@code GET /events} without a cookie (so each is a new session with its own
 * context and board), and records, on the selector thread, when its snapshot, its {@code going-away} event
 * and the end of its stream (the last chunk of the chunked response, or the connection's end) arrived.
 */
final class SseCrowd implements AutoCloseable {

    static final class Client {
        final SocketChannel channel;
        final StringBuilder text = new StringBuilder();
        volatile long subscribedAt = -1;
        volatile long goingAwayAt = -1;
        volatile long endedAt = -1;
        /** The going-away came before the stream ended, and nothing but the end followed it. */
        volatile boolean goingAwayLast;

        Client(SocketChannel channel) {
            this.channel = channel;
        }
    }

    private final Selector selector = Selector.open();
    private final ConcurrentLinkedQueue<Client> toRegister = new ConcurrentLinkedQueue<>();
    private final List<Client> clients = new ArrayList<>();
    private final Thread thread = new Thread(this::loop, "sse-crowd");
    private final InetSocketAddress server;
    private volatile boolean closed;

    SseCrowd(int port) throws IOException {
        this.server = new InetSocketAddress("127.0.0.1", port);
        thread.setDaemon(true);
        thread.start();
    }

    /** Opens {@code count} more connections (blocking connects: a local one is immediate) and sends each request. */
    List<Client> open(int count) throws IOException {
        List<Client> opened = new ArrayList<>();
        byte[] request = ("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < count; i++) {
            SocketChannel channel = SocketChannel.open(server);
            channel.write(ByteBuffer.wrap(request));
            channel.configureBlocking(false);
            Client client = new Client(channel);
            opened.add(client);
            toRegister.add(client);
        }
        synchronized (clients) {
            clients.addAll(opened);
        }
        selector.wakeup();
        return opened;
    }

    List<Client> clients() {
        synchronized (clients) {
            return List.copyOf(clients);
        }
    }

    private void loop() {
        ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
        try {
            while (!closed) {
                selector.select(100);
                for (Client client; (client = toRegister.poll()) != null; ) {
                    client.channel.register(selector, SelectionKey.OP_READ, client);
                }
                for (SelectionKey key : selector.selectedKeys()) {
                    Client client = (Client) key.attachment();
                    long now = System.nanoTime();
                    buffer.clear();
                    int read;
                    try {
                        read = client.channel.read(buffer);
                    } catch (IOException reset) {
                        read = -1;
                    }
                    if (read < 0) {
                        key.cancel();
                        client.channel.close();
                        ended(client, now);
                        continue;
                    }
                    client.text.append(new String(buffer.array(), 0, read, StandardCharsets.UTF_8));
                    seen(client, now);
                }
                selector.selectedKeys().clear();
            }
        } catch (IOException | RuntimeException broken) {
            if (!closed) {
                throw new IllegalStateException("the SSE crowd's selector failed", broken);
            }
        }
    }

    private static void seen(Client client, long now) {
        String text = client.text.toString();
        if (client.subscribedAt < 0 && text.contains("event:snapshot")) {
            client.subscribedAt = now;
        }
        int away = text.indexOf("event:going-away");
        if (client.goingAwayAt < 0 && away >= 0 && text.indexOf("\n\n", away) >= 0) {
            client.goingAwayAt = now;
        }
        if (client.endedAt < 0 && text.endsWith("\r\n0\r\n\r\n")) {
            ended(client, now);
        }
    }

    private static void ended(Client client, long now) {
        if (client.endedAt >= 0) {
            return;
        }
        client.endedAt = now;
        String text = client.text.toString();
        int away = text.indexOf("event:going-away");
        // After the going-away frame: its chunk's end, then only the last chunk (or nothing: the connection closed).
        client.goingAwayLast = away >= 0 && text.indexOf("event:", away + 1) < 0;
    }

    @Override
    public void close() throws IOException {
        closed = true;
        selector.wakeup();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Client client : clients()) {
            client.channel.close();
        }
        selector.close();
    }
}
