package dev.synccontext.sample;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A tab whose client stopped reading (a phone in a tunnel, a suspended laptop): a raw socket with a 2 KB
 * receive buffer that sends one {@code GET /api/events} of a session and never reads a byte, so the server's
 * writes fill the socket buffers and then cannot go on (as autoconfigure's live-channel tests do).
 */
final class StalledSocket implements AutoCloseable {

    private final Socket socket = new Socket();

    private StalledSocket(int port, String request) throws IOException {
        socket.setReceiveBufferSize(2048);
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        OutputStream out = socket.getOutputStream();
        out.write(request.getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /** The session's event stream, asked for as a browser would, then never read. */
    static StalledSocket events(int port, String sessionId) throws IOException {
        return new StalledSocket(port, "GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:" + port
                + "\r\nAccept: text/event-stream\r\nCookie: JSESSIONID=" + sessionId + "\r\n\r\n");
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
