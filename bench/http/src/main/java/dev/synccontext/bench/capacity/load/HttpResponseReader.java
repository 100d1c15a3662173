package dev.synccontext.bench.capacity.load;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Parses HTTP/1.1 responses from a byte stream, one after another on a keep-alive connection: status line,
 * headers, then a body framed by {@code Content-Length} or chunked transfer coding. Body bytes go to the
 * {@link Sink} as they arrive (an event stream is one endless chunked body). Not thread-safe: one
 * connection's reader runs on the client's selector thread only.
 */
final class HttpResponseReader {

    /** What a response delivers. */
    interface Sink {
        void headers(int status, String setCookie);

        void body(ByteBuffer bytes, int length);

        void complete(int status);
    }

    private enum State { STATUS, HEADERS, FIXED_BODY, CHUNK_SIZE, CHUNK_DATA, CHUNK_END, TRAILERS }

    private final Sink sink;
    private final StringBuilder line = new StringBuilder(128);
    private State state = State.STATUS;
    private int status;
    private long remaining;
    private boolean chunked;
    private String setCookie;
    private boolean closes;
    private boolean upgraded;

    HttpResponseReader(Sink sink) {
        this.sink = sink;
    }

    /**
     * Consumes every byte of {@code in}, or, once a {@code 101 Switching Protocols} response ended, none: the
     * bytes after it are the new protocol's, left in {@code in}.
     *
     * @throws IllegalStateException the bytes are no HTTP/1.1 response
     */
    void feed(ByteBuffer in) {
        while (in.hasRemaining() && !upgraded) {
            switch (state) {
                case FIXED_BODY, CHUNK_DATA -> {
                    int length = (int) Math.min(remaining, in.remaining());
                    int limit = in.limit();
                    in.limit(in.position() + length);
                    sink.body(in, length);
                    in.position(in.limit()).limit(limit);
                    remaining -= length;
                    if (remaining == 0) {
                        if (state == State.FIXED_BODY) {
                            finish();
                        } else {
                            state = State.CHUNK_END;
                        }
                    }
                }
                default -> {
                    if (readLine(in)) {
                        onLine(line.toString());
                        line.setLength(0);
                    }
                }
            }
        }
    }

    private boolean readLine(ByteBuffer in) {
        while (in.hasRemaining()) {
            char c = (char) (in.get() & 0xff);
            if (c == '\n') {
                int end = line.length();
                if (end > 0 && line.charAt(end - 1) == '\r') {
                    line.setLength(end - 1);
                }
                return true;
            }
            line.append(c);
            if (line.length() > 16_384) {
                throw new IllegalStateException("HTTP line longer than 16 KiB: " + line.substring(0, 80));
            }
        }
        return false;
    }

    private void onLine(String text) {
        switch (state) {
            case STATUS -> {
                if (text.isEmpty()) {
                    return; // tolerated between responses
                }
                if (!text.startsWith("HTTP/1.1 ") || text.length() < 12) {
                    throw new IllegalStateException("Not an HTTP/1.1 status line: " + text);
                }
                status = Integer.parseInt(text.substring(9, 12));
                remaining = 0;
                chunked = false;
                setCookie = null;
                closes = false;
                state = State.HEADERS;
            }
            case HEADERS -> {
                if (text.isEmpty()) {
                    sink.headers(status, setCookie);
                    if (chunked) {
                        state = State.CHUNK_SIZE;
                    } else if (remaining > 0) {
                        state = State.FIXED_BODY;
                    } else {
                        finish();
                    }
                    return;
                }
                int colon = text.indexOf(':');
                String name = text.substring(0, Math.max(colon, 0)).trim();
                String value = text.substring(colon + 1).trim();
                if (name.equalsIgnoreCase("content-length")) {
                    remaining = Long.parseLong(value);
                } else if (name.equalsIgnoreCase("transfer-encoding")) {
                    chunked = value.toLowerCase().contains("chunked");
                } else if (name.equalsIgnoreCase("connection")) {
                    closes = value.equalsIgnoreCase("close");
                } else if (name.equalsIgnoreCase("set-cookie")) {
                    int semicolon = value.indexOf(';');
                    setCookie = semicolon < 0 ? value : value.substring(0, semicolon);
                }
            }
            case CHUNK_SIZE -> {
                int extension = text.indexOf(';');
                remaining = Long.parseLong((extension < 0 ? text : text.substring(0, extension)).trim(), 16);
                state = remaining == 0 ? State.TRAILERS : State.CHUNK_DATA;
            }
            case CHUNK_END -> {
                if (!text.isEmpty()) {
                    throw new IllegalStateException("Chunk not followed by CRLF: " + text);
                }
                state = State.CHUNK_SIZE;
            }
            case TRAILERS -> {
                if (text.isEmpty()) {
                    finish();
                }
            }
            default -> throw new IllegalStateException(state.name());
        }
    }

    private void finish() {
        state = State.STATUS;
        upgraded = status == 101;
        sink.complete(status);
    }

    /** Whether the response being read (or just completed) said {@code Connection: close}. */
    boolean closes() {
        return closes;
    }

    /** Whether a {@code 101 Switching Protocols} response was read: the connection speaks another protocol now. */
    boolean upgraded() {
        return upgraded;
    }

    static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
