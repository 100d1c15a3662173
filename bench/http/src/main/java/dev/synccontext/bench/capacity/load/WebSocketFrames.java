package dev.synccontext.bench.capacity.load;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The client's side of RFC 6455 framing, for a tab over a WebSocket: reads the server's frames (unmasked) from
 * a byte stream and hands each whole text message, fragments joined, to its {@link Sink}; answers a ping
 * with a pong; writes the client's frames (masked, as the RFC requires of a client). Not thread-safe: one
 * connection's frames are read on the client's selector thread only.
 */
final class WebSocketFrames {

    /** What the server's frames deliver. */
    interface Sink {
        void text(String message);

        void ping(byte[] payload);

        void closed(String why);
    }

    private static final int TEXT = 0x1;
    private static final int CONTINUATION = 0x0;
    private static final int CLOSE = 0x8;
    private static final int PING = 0x9;
    private static final int PONG = 0xA;

    private final Sink sink;
    private final ByteArrayOutputStream header = new ByteArrayOutputStream(14);
    private final ByteArrayOutputStream message = new ByteArrayOutputStream(256);
    private byte[] payload;
    private int filled;
    private int opcode;
    private boolean fin;

    WebSocketFrames(Sink sink) {
        this.sink = sink;
    }

    /** Consumes every byte of {@code in}. */
    void feed(ByteBuffer in) {
        while (in.hasRemaining()) {
            if (payload == null) {
                header.write(in.get());
                readHeader();
            } else {
                int length = Math.min(payload.length - filled, in.remaining());
                in.get(payload, filled, length);
                filled += length;
                if (filled == payload.length) {
                    frame();
                }
            }
        }
    }

    /** Starts the payload once the header (2 to 10 bytes; the server's frames carry no mask) is complete. */
    private void readHeader() {
        byte[] bytes = header.toByteArray();
        if (bytes.length < 2) {
            return;
        }
        if ((bytes[1] & 0x80) != 0) {
            throw new IllegalStateException("The server masked a frame (RFC 6455 5.1 forbids it)");
        }
        int length7 = bytes[1] & 0x7f;
        int needed = length7 == 126 ? 4 : length7 == 127 ? 10 : 2;
        if (bytes.length < needed) {
            return;
        }
        long length = length7;
        if (length7 == 126) {
            length = ((bytes[2] & 0xff) << 8) | (bytes[3] & 0xff);
        } else if (length7 == 127) {
            length = ByteBuffer.wrap(bytes, 2, 8).getLong();
        }
        if (length > 1 << 20) {
            throw new IllegalStateException("A frame of " + length + " bytes; the pad's messages are small");
        }
        fin = (bytes[0] & 0x80) != 0;
        opcode = bytes[0] & 0x0f;
        payload = new byte[(int) length];
        filled = 0;
        header.reset();
        if (length == 0) {
            frame();
        }
    }

    private void frame() {
        byte[] data = payload;
        payload = null;
        switch (opcode) {
            case TEXT, CONTINUATION -> {
                message.writeBytes(data);
                if (fin) {
                    String text = message.toString(StandardCharsets.UTF_8);
                    message.reset();
                    sink.text(text);
                }
            }
            case PING -> sink.ping(data);
            case PONG -> {
                // unsolicited: nothing to do
            }
            case CLOSE -> sink.closed("closed by the server (" + (data.length >= 2
                    ? ((data[0] & 0xff) << 8 | (data[1] & 0xff)) + " " + new String(data, 2, data.length - 2,
                            StandardCharsets.UTF_8) : "no status") + ")");
            default -> throw new IllegalStateException("Unexpected frame opcode " + opcode);
        }
    }

    /** A client's text frame of {@code text}, masked with a zero key (which the RFC allows; it leaves the bytes). */
    static byte[] text(String text) {
        return frame(TEXT, text.getBytes(StandardCharsets.UTF_8));
    }

    /** A client's pong answering a ping that carried {@code payload}. */
    static byte[] pong(byte[] payload) {
        return frame(PONG, payload);
    }

    private static byte[] frame(int opcode, byte[] payload) {
        if (payload.length > 65_535) {
            throw new IllegalArgumentException("Frames of the load client stay under 64 KiB");
        }
        boolean small = payload.length < 126;
        ByteBuffer frame = ByteBuffer.allocate((small ? 2 : 4) + 4 + payload.length);
        frame.put((byte) (0x80 | opcode));
        if (small) {
            frame.put((byte) (0x80 | payload.length));
        } else {
            frame.put((byte) (0x80 | 126)).putShort((short) payload.length);
        }
        frame.putInt(0); // the masking key: zero, so the payload goes as it is
        frame.put(payload);
        return frame.array();
    }

    /** The handshake of a tab's WebSocket ({@code Sec-WebSocket-Key} may be any 16 bytes, base64). */
    static byte[] handshake(String path, String hostHeader) {
        return HttpResponseReader.ascii("GET " + path + " HTTP/1.1\r\n" + hostHeader + "Upgrade: websocket\r\n"
                + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
    }
}
