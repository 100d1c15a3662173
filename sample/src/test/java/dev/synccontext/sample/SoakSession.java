package dev.synccontext.sample;

import java.net.http.HttpHeaders;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Flow;

import tools.jackson.databind.JsonNode;

/**
 * What the soak's load client keeps per HTTP session: its cookies (no {@code CookieManager}, so that
 * a thousand sessions share one {@code HttpClient}), the counter values its acknowledged clicks were
 * answered with, and its open event streams. Several client threads use one session at once.
 */
final class SoakSession {

    final int index;
    private volatile String sessionId;
    private volatile String csrfToken;
    volatile long lastItemId;
    final List<Stream> streams = new CopyOnWriteArrayList<>();

    /** Guarded by {@code this}: acknowledged clicks and the distinct counter values they were answered with. */
    private long acknowledged;
    private final BitSet answered = new BitSet();
    private long repeatedAnswers;

    SoakSession(int index) {
        this.index = index;
    }

    String sessionId() {
        return sessionId;
    }

    /** The {@code Cookie} header a browser would send, or {@code null} before the session started. */
    String cookieHeader() {
        String id = sessionId;
        String token = csrfToken;
        if (id == null) {
            return token == null ? null : "XSRF-TOKEN=" + token;
        }
        return token == null ? "JSESSIONID=" + id : "JSESSIONID=" + id + "; XSRF-TOKEN=" + token;
    }

    String csrfToken() {
        return csrfToken;
    }

    void absorbCookies(HttpHeaders headers) {
        for (String setCookie : headers.allValues("set-cookie")) {
            int eq = setCookie.indexOf('=');
            int end = setCookie.indexOf(';');
            if (eq < 0) {
                continue;
            }
            String name = setCookie.substring(0, eq).strip();
            String value = setCookie.substring(eq + 1, end < 0 ? setCookie.length() : end).strip();
            if (name.equals("JSESSIONID")) {
                sessionId = value;
            } else if (name.equals("XSRF-TOKEN") && !value.isEmpty()) {
                csrfToken = value;
            }
        }
    }

    synchronized void clickAcknowledged(long counter) {
        acknowledged++;
        if (counter < 1 || counter > Integer.MAX_VALUE || answered.get((int) counter)) {
            repeatedAnswers++;
        } else {
            answered.set((int) counter);
        }
    }

    synchronized long acknowledged() {
        return acknowledged;
    }

    /** {@code null} if the acknowledged clicks were answered with exactly 1..n, each once; else what was wrong. */
    synchronized String answersProblem() {
        if (repeatedAnswers > 0) {
            return repeatedAnswers + " click(s) answered with a counter value seen before (or out of range)";
        }
        if (acknowledged == 0 && answered.isEmpty()) {
            return null;
        }
        if (answered.cardinality() != acknowledged || answered.length() != acknowledged + 1) {
            return "answers are not exactly 1.." + acknowledged + ": " + answered.cardinality() + " values, highest "
                    + (answered.length() - 1);
        }
        return null;
    }

    /**
     * One {@code GET /api/events} of this session, read line by line as the bytes arrive (no thread of
     * its own): checks that versions and the events' sequence numbers (ids {@code epoch-sequence}) only
     * grow, remembers the latest counter, notes {@code ended}.
     */
    static final class Stream implements Flow.Subscriber<String> {

        volatile int status;
        volatile long boards;
        volatile long lastVersion = -1;
        volatile long lastSequence = -1;
        volatile long lastCounter = -1;
        volatile String disorder;
        volatile boolean endedEvent;
        volatile boolean closed;
        private String event = "message";
        private long sequence = -1;

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(String line) {
            if (line.startsWith("id:")) {
                sequence = EventStream.sequence(line.substring(3).strip());
            } else if (line.startsWith("event:")) {
                event = line.substring(6).strip();
                if (event.equals("ended")) {
                    endedEvent = true;
                }
            } else if (line.startsWith("data:") && event.equals("board")) {
                JsonNode board = BoardClient.JSON.readTree(line.substring(5));
                long version = board.get("version").asLong();
                if (version <= lastVersion && disorder == null) {
                    disorder = "version " + version + " after " + lastVersion;
                }
                if (sequence <= lastSequence && disorder == null) {
                    disorder = "event sequence " + sequence + " after " + lastSequence;
                }
                lastVersion = version;
                lastSequence = sequence;
                lastCounter = board.get("counter").asLong();
                boards++;
            } else if (line.isEmpty()) {
                event = "message";
            }
        }

        @Override
        public void onError(Throwable throwable) {
            closed = true;
        }

        @Override
        public void onComplete() {
            closed = true;
        }
    }
}
