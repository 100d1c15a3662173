package dev.synccontext.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadFactory;
import org.jspecify.annotations.Nullable;

/**
 * Event-stream responses read on one selector thread: a thread per connection would cost the 2-core machine
 * more than the server under test. Each connection sends its request when opened, feeds what it reads to its
 * {@link SseDecoder} (stamped with {@link System#nanoTime()} on the selector thread, right after the read) and is
 * closed when its stream ends, by the last chunk or by the connection's end.
 *
 * <p>The decoders' listeners run on the selector thread; one may {@link #open} again from its
 * {@link SseDecoder.Listener#end end} (a reconnect). Used by {@link SseCrowd} and by cluster-it's tabs.
 */
public final class SseConnections implements AutoCloseable {

    private record Connection(SocketChannel channel, SseDecoder decoder) {
    }

    private final Selector selector = Selector.open();
    private final ConcurrentLinkedQueue<Connection> toRegister = new ConcurrentLinkedQueue<>();
    /** Every connection not closed yet; the selector thread removes, {@link #open} adds. */
    private final Set<Connection> open = new HashSet<>();
    private final Thread thread;
    private volatile boolean closed;
    private volatile @Nullable Throwable failure;

    /** Connections read on a thread of {@code threads} (so that a test's thread guard can watch it). */
    public SseConnections(ThreadFactory threads) throws IOException {
        this.thread = threads.newThread(this::loop);
        thread.start();
    }

    /** Threads for {@link #SseConnections(ThreadFactory)}: daemons named {@code name}. */
    public static ThreadFactory daemonThreads(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    /**
     * Connects to {@code server} (blocking, immediate on a local port: open a batch no bigger than the server's
     * accept backlog before waiting for it), sends {@code request} (an HTTP/1.1 request head, ASCII) and reads
     * the response into a decoder for {@code listener}, from the selector thread. Any thread may call it.
     */
    public void open(InetSocketAddress server, String request, SseDecoder.Listener listener) throws IOException {
        SocketChannel channel = SocketChannel.open(server);
        channel.write(ByteBuffer.wrap(request.getBytes(StandardCharsets.US_ASCII))); // a few hundred bytes: all fit
        channel.configureBlocking(false);
        Connection connection = new Connection(channel, new SseDecoder(listener));
        synchronized (open) {
            open.add(connection);
        }
        toRegister.add(connection);
        selector.wakeup();
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
                for (Connection connection; (connection = toRegister.poll()) != null; ) {
                    connection.channel.register(selector, SelectionKey.OP_READ, connection);
                }
                for (SelectionKey key : selector.selectedKeys()) {
                    read((Connection) key.attachment(), buffer);
                }
                selector.selectedKeys().clear();
            }
        } catch (IOException | RuntimeException broken) {
            if (!closed) {
                failure = broken;
            }
        }
    }

    private void read(Connection connection, ByteBuffer buffer) throws IOException {
        buffer.clear();
        int read;
        try {
            read = connection.channel.read(buffer);
        } catch (IOException reset) {
            read = -1;
        }
        long now = System.nanoTime();
        if (read < 0) {
            connection.decoder.closed(now);
        } else {
            connection.decoder.feed(buffer.array(), read, now);
        }
        if (connection.decoder.ended()) {
            connection.channel.close(); // also cancels its key
            synchronized (open) {
                open.remove(connection);
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
        List<Connection> left;
        synchronized (open) {
            left = List.copyOf(open);
        }
        for (Connection connection : left) {
            connection.channel.close();
        }
        selector.close();
    }
}
