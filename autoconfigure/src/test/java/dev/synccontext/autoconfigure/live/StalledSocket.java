package dev.synccontext.autoconfigure.live;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A tab whose client stopped reading (a phone in a tunnel, a suspended laptop): a raw socket with a 2 KB
 * receive buffer that sends one request and never reads a byte, so the server's writes fill the socket
 * buffers and then cannot go on.
 */
final class StalledSocket implements AutoCloseable {

    private final Socket socket = new Socket();

    StalledSocket(int port, String request) throws IOException {
        socket.setReceiveBufferSize(2048);
        socket.connect(new InetSocketAddress("localhost", port), 5_000);
        OutputStream out = socket.getOutputStream();
        out.write(request.getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /** {@code GET path} with the session's cookie, asking for an event stream. */
    static StalledSocket sse(int port, String path, String sessionCookie) throws IOException {
        return new StalledSocket(port, "GET " + path + " HTTP/1.1\r\nHost: localhost:" + port
                + "\r\nAccept: text/event-stream\r\nCookie: JSESSIONID=" + sessionCookie + "\r\n\r\n");
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
