package dev.synccontext.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A tab whose client stopped reading (a phone in a tunnel, a suspended laptop): a raw socket with a 2 KB
 * receive buffer that sends one request and never reads a byte (a STOMP client: only the handshake's answer),
 * so the server's writes fill the socket buffers and then cannot go on. Shared through core's test jar, as
 * {@link Browser} is: the one stalled client of every module's tests.
 */
public final class StalledSocket implements AutoCloseable {

    private final Socket socket = new Socket();

    /** Connects to {@code 127.0.0.1:port} and sends {@code request} (a whole HTTP request head), then never reads. */
    public StalledSocket(int port, String request) throws IOException {
        socket.setReceiveBufferSize(2048);
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        OutputStream out = socket.getOutputStream();
        out.write(request.getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /** {@code GET path} with the session's cookie, asking for an event stream. */
    public static StalledSocket sse(int port, String path, String sessionCookie) throws IOException {
        return new StalledSocket(port, "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port
                + "\r\nAccept: text/event-stream\r\nCookie: JSESSIONID=" + sessionCookie + "\r\n\r\n");
    }

    /**
     * A STOMP client over WebSocket that stops reading: completes the handshake (reads the {@code 101} answer, and
     * nothing after it), sends real masked frames CONNECT, SUBSCRIBE {@code destination} and SEND
     * {@code subscribeTo} (an empty body), then never reads a byte.
     */
    public static StalledSocket stomp(int port, String path, String destination, String subscribeTo)
            throws IOException {
        StalledSocket stalled = new StalledSocket(port, upgrade(port, path, "Sec-WebSocket-Protocol: v12.stomp\r\n"));
        stalled.awaitUpgrade();
        stalled.sendText("CONNECT\naccept-version:1.2\nhost:127.0.0.1\nheart-beat:0,0\n\n\0");
        stalled.sendText("SUBSCRIBE\nid:sub-0\ndestination:" + destination + "\n\n\0");
        stalled.sendText("SEND\ndestination:" + subscribeTo + "\ncontent-length:0\n\n\0");
        return stalled;
    }

    /** A WebSocket client that sends the handshake and then never reads a byte, not even the {@code 101} answer. */
    public static StalledSocket webSocket(int port, String path) throws IOException {
        return new StalledSocket(port, upgrade(port, path, ""));
    }

    /** The WebSocket handshake's request for {@code path}, with {@code headers} (each ending with CRLF) added. */
    private static String upgrade(int port, String path, String headers) {
        return "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nUpgrade: websocket\r\nConnection: Upgrade"
                + "\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n" + headers + "\r\n";
    }

    /** Reads the handshake's answer up to its blank line, byte by byte (nothing of what follows it). */
    private void awaitUpgrade() throws IOException {
        socket.setSoTimeout(10_000);
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed during the handshake: " + head.toString(StandardCharsets.ISO_8859_1));
            }
            head.write(b);
        }
        String answer = head.toString(StandardCharsets.ISO_8859_1);
        if (!answer.startsWith("HTTP/1.1 101")) {
            throw new IOException("handshake refused: " + answer);
        }
    }

    /** One final, masked WebSocket text frame (as every client frame must be), payload under 126 bytes. */
    private void sendText(String text) throws IOException {
        byte[] payload = text.getBytes(StandardCharsets.UTF_8);
        if (payload.length > 125) {
            throw new IllegalArgumentException("frame too long for the short form: " + payload.length);
        }
        byte[] mask = new byte[4];
        ThreadLocalRandom.current().nextBytes(mask);
        byte[] frame = new byte[2 + 4 + payload.length];
        frame[0] = (byte) 0x81; // FIN, text
        frame[1] = (byte) (0x80 | payload.length); // masked
        System.arraycopy(mask, 0, frame, 2, 4);
        for (int i = 0; i < payload.length; i++) {
            frame[6 + i] = (byte) (payload[i] ^ mask[i % 4]);
        }
        OutputStream out = socket.getOutputStream();
        out.write(frame);
        out.flush();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
