package dev.synccontext.bench.capacity.load;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;

/**
 * One non-blocking client connection on the load client's selector: connect, write a request (the rest
 * of it when the socket buffer is full), and hand what it reads to an {@link HttpResponseReader}. Runs on
 * the selector thread only.
 */
abstract class Connection {

    final LoadClient client;
    final HttpResponseReader reader;
    private SocketChannel channel;
    private SelectionKey key;
    private ByteBuffer pending;
    private boolean open;

    Connection(LoadClient client) {
        this.client = client;
        this.reader = new HttpResponseReader(sink());
    }

    abstract HttpResponseReader.Sink sink();

    /** The connection is established: write the first request. */
    abstract void connected();

    /** The connection ended (by the server, a reset, or a parse failure). */
    abstract void ended(String why);

    final void connect(Selector selector, InetSocketAddress server) throws IOException {
        channel = SocketChannel.open();
        channel.configureBlocking(false);
        channel.socket().setTcpNoDelay(true);
        key = channel.register(selector, SelectionKey.OP_CONNECT, this);
        open = true;
        if (channel.connect(server)) {
            key.interestOps(SelectionKey.OP_READ);
            connected();
        }
    }

    final boolean isOpen() {
        return open;
    }

    final void send(byte[] request) {
        ByteBuffer out = ByteBuffer.wrap(request);
        try {
            channel.write(out);
        } catch (IOException broken) {
            fail("write failed: " + broken.getMessage());
            return;
        }
        if (out.hasRemaining()) {
            pending = out;
            key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
        }
    }

    /** Called by the selector loop for this connection's ready operations. */
    final void ready(ByteBuffer readBuffer) {
        try {
            if (key.isConnectable()) {
                channel.finishConnect();
                key.interestOps(SelectionKey.OP_READ);
                connected();
                return;
            }
            if (key.isWritable() && pending != null) {
                channel.write(pending);
                if (!pending.hasRemaining()) {
                    pending = null;
                    key.interestOps(SelectionKey.OP_READ);
                }
            }
            if (key.isReadable()) {
                while (open) {
                    readBuffer.clear();
                    int read = channel.read(readBuffer);
                    if (read < 0) {
                        fail("closed by the server");
                        return;
                    }
                    if (read == 0) {
                        return;
                    }
                    client.bytesRead(read);
                    readBuffer.flip();
                    received(readBuffer);
                }
            }
        } catch (IOException | RuntimeException broken) {
            fail(broken.getClass().getSimpleName() + ": " + broken.getMessage());
        }
    }

    /** Consumes what was read: an HTTP response by default. */
    void received(ByteBuffer bytes) {
        reader.feed(bytes);
    }

    /** Closes the socket without reporting anything (the owner decided to). */
    final void close() {
        if (!open) {
            return;
        }
        open = false;
        key.cancel();
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing: nothing left to tell
        }
    }

    final void fail(String why) {
        if (open) {
            close();
            ended(why);
        }
    }
}
