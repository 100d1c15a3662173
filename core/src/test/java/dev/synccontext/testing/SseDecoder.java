package dev.synccontext.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Decodes one HTTP/1.1 response that carries an event stream, fed its bytes as they are read: the head, then
 * the body (chunked or not), then the events. A read may end anywhere, even inside a chunk-size line or a CRLF.
 *
 * <p>Events follow the event-stream format: lines end with LF (a CR before it is dropped), a line starting with
 * a colon is a comment, a field's value loses one leading space, {@code data} lines join with LF, and a blank
 * line dispatches the event if any field was read since the last one. What is decoded goes to a
 * {@link Listener}, on the thread that feeds; one decoder per response, fed by one thread.
 */
public final class SseDecoder {

    /** What a response carried, in order: its head, its events (or its refusal) and its end, once. */
    @FunctionalInterface
    public interface Listener {

        /** The response's head arrived: its status code and its text (status line and headers, with CRLFs). */
        default void head(int status, String head) {
        }

        /**
         * An event of a {@code 200} response, read at {@code now} ({@link System#nanoTime()}): its id (null if it
         * had none), its name ({@code message} if none) and its data in {@code data[0, length)}, valid only during
         * this call (the decoder reuses the array).
         */
        void event(@Nullable String id, String name, byte[] data, int length, long now);

        /** Body text of a response whose status is not {@code 200}, as it arrives; not decoded as events. */
        default void refusal(String text) {
        }

        /** The stream ended: {@code completed} by the last chunk (the server ended it), or else cut. Once. */
        default void end(boolean completed, long now) {
        }
    }

    private final Listener listener;

    private final StringBuilder head = new StringBuilder();
    private int status = -1;
    private boolean chunked;
    /** Chunked bodies: bytes left in the current chunk, 0 while a chunk-size line is read. */
    private long chunkLeft;
    private final StringBuilder chunkSize = new StringBuilder();
    /** The CRLF after a chunk's data, still to skip. */
    private int crlfLeft;
    private boolean ended;

    private byte[] line = new byte[256];
    private int lineLength;
    private @Nullable String id;
    private String name = "message";
    private byte[] data = new byte[256];
    private int dataLength;
    private boolean dataLines;
    private boolean fields;

    public SseDecoder(Listener listener) {
        this.listener = listener;
    }

    /**
     * A decoder for the body of a {@code 200} response whose head was read elsewhere and whose chunks were
     * decoded there ({@code java.net.http} hands the body over so): events from the first byte, no {@code head}.
     */
    public static SseDecoder ofBody(Listener listener) {
        SseDecoder decoder = new SseDecoder(listener);
        decoder.status = 200;
        return decoder;
    }

    /**
     * Reads {@code body} (as {@link #ofBody} takes it) on the calling thread until it ends, each event to
     * {@code listener}, then the end; an {@code IOException} (the stream closed under it) goes to the caller.
     */
    public static void read(InputStream body, Listener listener) throws IOException {
        SseDecoder decoder = ofBody(listener);
        byte[] buffer = new byte[8192];
        for (int read; (read = body.read(buffer)) >= 0; ) {
            decoder.feed(buffer, read, System.nanoTime());
        }
        decoder.closed(System.nanoTime());
    }

    /** Whether the stream ended (the last chunk arrived, or {@link #closed} was called). */
    public boolean ended() {
        return ended;
    }

    /** Decodes {@code bytes[0, length)}, read at {@code now}; nothing after the stream's end. */
    public void feed(byte[] bytes, int length, long now) {
        int at = 0;
        while (at < length && !ended) {
            if (status < 0) {
                at = head(bytes, at, length);
            } else if (!chunked) {
                body(bytes, at, length, now);
                at = length;
            } else if (crlfLeft > 0) {
                at++;
                crlfLeft--;
            } else if (chunkLeft > 0) {
                int take = (int) Math.min(chunkLeft, length - at);
                body(bytes, at, at + take, now);
                at += take;
                chunkLeft -= take;
                crlfLeft = chunkLeft == 0 ? 2 : 0;
            } else {
                at = chunkSizeLine(bytes, at, length, now);
            }
        }
    }

    /** The connection ended at {@code now}: the stream ends here if the last chunk did not end it before. */
    public void closed(long now) {
        end(false, now);
    }

    private int head(byte[] bytes, int at, int length) {
        while (at < length) {
            head.append((char) bytes[at++]);
            int n = head.length();
            if (n >= 4 && head.charAt(n - 1) == '\n' && head.charAt(n - 2) == '\r' && head.charAt(n - 3) == '\n') {
                String text = head.toString();
                for (String header : text.split("\r\n")) {
                    String compact = header.toLowerCase(Locale.ROOT).replace(" ", "");
                    chunked |= compact.equals("transfer-encoding:chunked");
                }
                status = Integer.parseInt(text.split(" ", 3)[1]);
                listener.head(status, text);
                return at;
            }
        }
        return at;
    }

    private int chunkSizeLine(byte[] bytes, int at, int length, long now) {
        while (at < length) {
            char c = (char) bytes[at++];
            if (c == '\n') {
                String hex = chunkSize.toString().trim();
                chunkSize.setLength(0);
                int extension = hex.indexOf(';');
                chunkLeft = Long.parseLong(extension < 0 ? hex : hex.substring(0, extension), 16);
                if (chunkLeft == 0) {
                    end(true, now); // the last chunk: what follows (trailers) is not the stream's
                }
                return at;
            }
            chunkSize.append(c);
        }
        return at;
    }

    private void body(byte[] bytes, int from, int to, long now) {
        if (status != 200) {
            listener.refusal(new String(bytes, from, to - from, StandardCharsets.UTF_8));
            return;
        }
        for (int i = from; i < to; i++) {
            byte b = bytes[i];
            if (b != '\n') {
                if (lineLength == line.length) {
                    line = Arrays.copyOf(line, line.length * 2);
                }
                line[lineLength++] = b;
                continue;
            }
            int end = lineLength > 0 && line[lineLength - 1] == '\r' ? lineLength - 1 : lineLength;
            lineLength = 0;
            if (end == 0) {
                dispatch(now);
            } else if (line[0] != ':') {
                field(end);
            }
        }
    }

    private void field(int end) {
        fields = true;
        int colon = 0;
        while (colon < end && line[colon] != ':') {
            colon++;
        }
        int value = colon == end ? end : colon + 1;
        if (value < end && line[value] == ' ') {
            value++;
        }
        if (is("data", colon)) {
            int needed = dataLength + 1 + end - value;
            if (needed > data.length) {
                data = Arrays.copyOf(data, Math.max(needed, data.length * 2));
            }
            if (dataLines) {
                data[dataLength++] = '\n';
            }
            System.arraycopy(line, value, data, dataLength, end - value);
            dataLength += end - value;
            dataLines = true;
        } else if (is("id", colon)) {
            id = new String(line, value, end - value, StandardCharsets.UTF_8);
        } else if (is("event", colon)) {
            name = new String(line, value, end - value, StandardCharsets.UTF_8);
        }
    }

    private boolean is(String field, int length) {
        if (length != field.length()) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (line[i] != field.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private void dispatch(long now) {
        if (fields) {
            listener.event(id, name, data, dataLength, now);
        }
        fields = false;
        id = null;
        name = "message";
        dataLength = 0;
        dataLines = false;
    }

    private void end(boolean completed, long now) {
        if (!ended) {
            ended = true;
            listener.end(completed, now);
        }
    }
}
