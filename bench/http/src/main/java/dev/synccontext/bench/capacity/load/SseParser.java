package dev.synccontext.bench.capacity.load;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Splits an event stream's body into events (the WHATWG rules the page's {@code EventSource} follows: lines,
 * {@code event:} and {@code data:} fields, a blank line dispatches; comments ignored).
 */
final class SseParser {

    /** Receives each complete event. */
    interface Listener {
        void event(String name, String data);
    }

    private final Listener listener;
    private final byte[] line = new byte[8192];
    private int length;
    private String event = "message";
    private final StringBuilder data = new StringBuilder(256);

    SseParser(Listener listener) {
        this.listener = listener;
    }

    void feed(ByteBuffer in, int count) {
        for (int i = 0; i < count; i++) {
            byte b = in.get();
            if (b == '\n') {
                onLine();
                length = 0;
            } else if (b != '\r') {
                if (length == line.length) {
                    throw new IllegalStateException("Event stream line longer than " + line.length + " bytes");
                }
                line[length++] = b;
            }
        }
    }

    private void onLine() {
        if (length == 0) {
            if (data.length() > 0) {
                listener.event(event, data.toString());
            }
            event = "message";
            data.setLength(0);
            return;
        }
        String text = new String(line, 0, length, StandardCharsets.UTF_8);
        if (text.startsWith("data:")) {
            if (data.length() > 0) {
                data.append('\n');
            }
            data.append(field(text, 5));
        } else if (text.startsWith("event:")) {
            event = field(text, 6);
        }
        // id:, retry: and comments carry nothing the harness checks.
    }

    private static String field(String text, int start) {
        return text.length() > start && text.charAt(start) == ' ' ? text.substring(start + 1) : text.substring(start);
    }

    /** The value of {@code "name":"<text without quotes>"} in a JSON object, or {@code null} when absent. */
    static String jsonString(String json, String name) {
        String key = "\"" + name + "\":\"";
        int at = json.indexOf(key);
        int end = at < 0 ? -1 : json.indexOf('"', at + key.length());
        return end < 0 ? null : json.substring(at + key.length(), end);
    }

    /** The value of {@code "name":<digits>} in a JSON object, or {@code -1} when absent. */
    static long jsonLong(String json, String name) {
        String key = "\"" + name + "\":";
        int at = json.indexOf(key);
        if (at < 0) {
            return -1;
        }
        long value = 0;
        int i = at + key.length();
        boolean digits = false;
        while (i < json.length() && Character.isDigit(json.charAt(i))) {
            value = value * 10 + (json.charAt(i++) - '0');
            digits = true;
        }
        return digits ? value : -1;
    }
}
