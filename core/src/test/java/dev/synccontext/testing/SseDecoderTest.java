package dev.synccontext.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/** The shared event-stream decoder, fed each response whole and split in two at every byte. */
class SseDecoderTest {

    static final String EVENTS = "id:e-1\nevent:snapshot\ndata:{\"n\":1}\n\n"
            + ": a comment\n\n"
            + "id: e-2\r\ndata:first\r\ndata: second\r\n\r\n"
            + "data:\n\n"
            + "event:going-away\ndata:{\"reconnect\":true}\n\n";

    static final List<String> DECODED = List.of(
            "e-1 snapshot {\"n\":1}",
            "e-2 message first\nsecond",
            "null message ",
            "null going-away {\"reconnect\":true}");

    @Test
    void aChunkedStreamIsDecodedWhereverItsReadsEnd() {
        String body = chunked(EVENTS, 7) + "0\r\nX-Trailer: not an event\r\n\r\n";
        for (Seen seen : fedEverySplit("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n" + body, true)) {
            assertThat(seen.status).isEqualTo(200);
            assertThat(seen.events).isEqualTo(DECODED);
            assertThat(seen.end).as("ended by the last chunk").isEqualTo("completed");
        }
    }

    @Test
    void aStreamWithoutChunksEndsWithItsConnection() {
        for (Seen seen : fedEverySplit("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n" + EVENTS, false)) {
            assertThat(seen.events).isEqualTo(DECODED);
            assertThat(seen.end).as("no last chunk: the connection's end is a cut").isEqualTo("cut");
        }
    }

    @Test
    void aRefusalIsKeptAsTextAndNotDecodedAsEvents() {
        for (Seen seen : fedEverySplit("HTTP/1.1 503 Service Unavailable\r\nTransfer-Encoding: chunked\r\n\r\n"
                + chunked("data:not an event\n\n", 5) + "0\r\n\r\n", true)) {
            assertThat(seen.status).isEqualTo(503);
            assertThat(seen.events).isEmpty();
            assertThat(seen.refusal.toString()).isEqualTo("data:not an event\n\n");
            assertThat(seen.end).isEqualTo("completed");
        }
    }

    @Test
    void aChunkExtensionAndALargeEventAreRead() {
        String data = "x".repeat(1000);
        String events = "id:big-7\ndata:" + data + "\n\n";
        String body = Integer.toHexString(events.length()) + ";ext=1\r\n" + events + "\r\n0\r\n\r\n";
        for (Seen seen : fedEverySplit("HTTP/1.1 200 OK\r\ntransfer-encoding:  chunked\r\n\r\n" + body, true)) {
            assertThat(seen.events).containsExactly("big-7 message " + data);
        }
    }

    /** The response in 1 + 2 feeds, split at every position (then closed), each into a new decoder. */
    private static List<Seen> fedEverySplit(String response, boolean endsItself) {
        byte[] bytes = response.getBytes(StandardCharsets.UTF_8);
        List<Seen> all = new ArrayList<>();
        for (int split = 0; split <= bytes.length; split++) {
            Seen seen = new Seen();
            SseDecoder decoder = new SseDecoder(seen);
            decoder.feed(bytes, split, 1);
            byte[] rest = new byte[bytes.length - split];
            System.arraycopy(bytes, split, rest, 0, rest.length);
            decoder.feed(rest, rest.length, 2);
            assertThat(decoder.ended()).as("ended before the connection closed").isEqualTo(endsItself);
            decoder.closed(3);
            decoder.closed(4);
            assertThat(seen.ends).as("one end").isEqualTo(1);
            all.add(seen);
        }
        return all;
    }

    /** {@code text} as chunks of at most {@code size} bytes, without the last chunk. */
    private static String chunked(String text, int size) {
        StringBuilder chunks = new StringBuilder();
        for (int at = 0; at < text.length(); at += size) {
            String chunk = text.substring(at, Math.min(text.length(), at + size));
            chunks.append(Integer.toHexString(chunk.length())).append("\r\n").append(chunk).append("\r\n");
        }
        return chunks.toString();
    }

    private static final class Seen implements SseDecoder.Listener {
        int status = -1;
        final List<String> events = new ArrayList<>();
        final StringBuilder refusal = new StringBuilder();
        @Nullable String end;
        int ends;

        @Override
        public void head(int status, String head) {
            this.status = status;
        }

        @Override
        public void event(@Nullable String id, String name, byte[] data, int length, long now) {
            events.add(id + " " + name + " " + new String(data, 0, length, StandardCharsets.UTF_8));
        }

        @Override
        public void refusal(String text) {
            refusal.append(text);
        }

        @Override
        public void end(boolean completed, long now) {
            end = completed ? "completed" : "cut";
            ends++;
        }
    }
}
