package dev.synccontext.cluster;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;

/**
 * Sessions of {@link DurableClusterApp} under load: each session (its own cookies, and a {@code route} cookie for
 * nginx's affinity hash) has a writer that increments its durable counter and a reader that reads it back, at once,
 * each one request after the other, until stopped. Counted per session: increments acknowledged (200) and when,
 * answers of unknown outcome (a 5xx other than 503, or no answer: the increment may or may not have run), reads
 * that saw less than what was acknowledged before they were sent. A 503 (a hand-off past its bounded wait, or a
 * draining node) ran nothing: the client waits its {@code Retry-After} (at most 1 s) and repeats, counted, on every
 * request path, the read that opens a session included.
 */
final class DurableLoad {

    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    /** One session: its cookies and what its requests saw. */
    static final class Session {
        final String route = UUID.randomUUID().toString();
        volatile String sessionCookie;
        final AtomicInteger acknowledged = new AtomicInteger();
        final ConcurrentLinkedQueue<Long> ackTimes = new ConcurrentLinkedQueue<>();
        final AtomicInteger unknown = new AtomicInteger();
        final AtomicInteger readRegressions = new AtomicInteger();
        final AtomicInteger lastRead = new AtomicInteger(-1);

        /** The Spring Session id (the servlet side Base64-encodes it in the cookie). */
        String sessionId() {
            return new String(Base64.getDecoder().decode(sessionCookie), StandardCharsets.UTF_8);
        }

        /** Acknowledgements received at or after {@code nanoTime}. */
        int acknowledgedSince(long nanoTime) {
            return (int) ackTimes.stream().filter(t -> t >= nanoTime).count();
        }
    }

    /** A reply: status (-1: no answer), body, answering node. */
    record Reply(int status, String body, String node) {
    }

    final List<Session> sessions = new ArrayList<>();
    final LongAdder retried503 = new LongAdder();
    final LongAdder other5xx = new LongAdder();
    final LongAdder noAnswer = new LongAdder();
    final LongAdder requests = new LongAdder();
    /** The first few answers that were neither 200 nor 503 (or no answer), for the failure message. */
    final ConcurrentLinkedQueue<String> otherSamples = new ConcurrentLinkedQueue<>();
    final Latencies latencies = new Latencies();
    private final IntSupplier port;
    private final AtomicBoolean running = new AtomicBoolean();
    private final List<Thread> threads = new ArrayList<>();

    /** Sessions sending to whatever port {@code port} answers at each request (nginx's, or one node's). */
    DurableLoad(IntSupplier port) {
        this.port = port;
    }

    /** {@code count} new sessions, each created by one read (so its writer and reader share one session). */
    List<Session> open(int count) {
        List<Session> opened = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Session session = new Session();
            Reply first = sendPast503(session, "GET", "/durable/count");
            if (first.status() != 200 || session.sessionCookie == null) {
                throw new IllegalStateException("session " + i + " could not start: " + first);
            }
            opened.add(session);
        }
        sessions.addAll(opened);
        return opened;
    }

    /** Starts every session's writer and reader. */
    void start() {
        running.set(true);
        for (Session session : sessions) {
            threads.add(thread(() -> {
                while (running.get()) {
                    increment(session);
                }
            }));
            threads.add(thread(() -> {
                while (running.get()) {
                    readBack(session);
                }
            }));
        }
    }

    /** Stops the writers and readers after their current request. */
    void stop() throws InterruptedException {
        running.set(false);
        for (Thread thread : threads) {
            thread.join(60_000);
        }
        threads.clear();
    }

    /** One increment until it is answered with anything but 503; what it was is counted. */
    Reply increment(Session session) {
        Reply reply = sendPast503(session, "POST", "/durable/increment");
        if (reply.status() == 200) {
            session.acknowledged.incrementAndGet();
            session.ackTimes.add(System.nanoTime());
        } else {
            session.unknown.incrementAndGet();
        }
        return reply;
    }

    /** Reads the counter (retrying 503s); counts a read below what was acknowledged before it was sent. */
    Reply readBack(Session session) {
        int before = session.acknowledged.get();
        Reply reply = sendPast503(session, "GET", "/durable/count");
        if (reply.status() == 200) {
            int value = Integer.parseInt(reply.body().trim());
            if (value < before) {
                session.readRegressions.incrementAndGet();
            }
            session.lastRead.set(value);
        }
        return reply;
    }

    /** The final count of every session, read once each after {@link #stop()}. */
    int finalCount(Session session) {
        Reply reply = readBack(session);
        if (reply.status() != 200) {
            throw new IllegalStateException("final read failed: " + reply);
        }
        return Integer.parseInt(reply.body().trim());
    }

    /**
     * {@link #send} until the answer is anything but 503: a 503 ran nothing (a hand-off past its bounded wait, a
     * draining node), and {@link #send} has waited its {@code Retry-After}. Every request path of the load goes
     * through here, opening a session included.
     */
    Reply sendPast503(Session session, String method, String path) {
        while (true) {
            Reply reply = send(session, method, path);
            if (reply.status() != 503) {
                return reply;
            }
        }
    }

    Reply send(Session session, String method, String path) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port.getAsInt() + path))
                .timeout(Duration.ofSeconds(30)).header("Cookie", cookies(session))
                .method(method, HttpRequest.BodyPublishers.noBody());
        requests.increment();
        long start = System.nanoTime();
        HttpResponse<String> response;
        try {
            response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException noAnswer) {
            this.noAnswer.increment();
            if (otherSamples.size() < 5) {
                otherSamples.add(method + " " + path + " -> no answer: " + noAnswer);
            }
            return new Reply(-1, String.valueOf(noAnswer), "");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        sessionCookie(response).ifPresent(cookie -> session.sessionCookie = cookie);
        int status = response.statusCode();
        if (status == 200) {
            latencies.add(System.nanoTime() - start);
        } else if (status == 503) {
            retried503.increment();
            waitRetryAfter(response);
        } else if (status >= 500) {
            other5xx.increment();
            if (otherSamples.size() < 5) {
                otherSamples.add(method + " " + path + " -> " + status + " " + response.body());
            }
        }
        return new Reply(status, response.body(), response.headers().firstValue("X-Node").orElse(""));
    }

    /** The {@code SESSION} cookie's value that {@code response} set, if it set one. */
    static Optional<String> sessionCookie(HttpResponse<?> response) {
        return response.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith("SESSION=")).findFirst()
                .map(c -> c.substring("SESSION=".length(), c.indexOf(';')));
    }

    private static void waitRetryAfter(HttpResponse<?> response) {
        long seconds = response.headers().firstValue("Retry-After").map(Long::parseLong).orElse(1L);
        try {
            Thread.sleep(Math.min(1000, seconds * 1000)); // the client honours Retry-After (capped), as asked
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String cookies(Session session) {
        String cookie = "route=" + session.route;
        return session.sessionCookie == null ? cookie : cookie + "; SESSION=" + session.sessionCookie;
    }

    private static Thread thread(Runnable body) {
        Thread thread = new Thread(body, "durable-load");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }
}
