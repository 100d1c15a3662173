package dev.synccontext.test.cluster;

import dev.synccontext.test.SyncContextTestKit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * Browsers of a scenario: each session's client sends one increment at a time, waits for its answer, thinks, and
 * sends the next (after a failure too), until it has sent its share. Records what the cluster acknowledged.
 */
final class Clients {

    /** An increment the cluster answered: the count it returned, when, and from which node. */
    record Ack(int value, long atNanos, String node) {
    }

    /** One session's record. */
    static final class Log {
        final List<Ack> acks = new ArrayList<>();
        final List<Throwable> failures = new ArrayList<>();
        int sent;

        /** The counts acknowledged, in the order they were answered. */
        List<Integer> values() {
            return acks.stream().map(Ack::value).toList();
        }

        /** Acknowledgements answered by {@code nodeName} in {@code [fromNanos, toNanos)}. */
        long ackedBy(String nodeName, long fromNanos, long toNanos) {
            return acks.stream().filter(a -> a.node.equals(nodeName) && a.atNanos >= fromNanos && a.atNanos < toNanos)
                    .count();
        }
    }

    private final SyncContextTestKit kit;
    private final Function<String, Sender> senders;
    private final Duration think;
    final Map<String, Log> logs = new LinkedHashMap<>();

    /** How a client's request reaches the cluster (through the load balancer, or to a chosen node). */
    interface Sender {
        CompletableFuture<Ack> send(Function<SessionCall, Ack> increment);
    }

    Clients(SyncContextTestKit kit, Function<String, Sender> senders, Duration think) {
        this.kit = kit;
        this.senders = senders;
        this.think = think;
    }

    /** Clients through {@code cluster}'s load balancer. */
    static Clients through(InMemoryCluster cluster, SyncContextTestKit kit, Duration think) {
        return new Clients(kit, session -> increment -> cluster.call(session, increment), think);
    }

    /** Starts a client of {@code session} that sends {@code requests} increments. */
    void start(String session, int requests) {
        Log log = logs.computeIfAbsent(session, s -> new Log());
        send(session, log, requests);
    }

    private void send(String session, Log log, int left) {
        if (left == 0) {
            return;
        }
        log.sent++;
        senders.apply(session).send(call -> new Ack(call.bean(Counter.class).increment(), kit.clock().nanoTime(),
                call.node())).whenComplete((ack, failure) -> {
                    if (failure == null) {
                        log.acks.add(ack);
                    } else {
                        log.failures.add(failure);
                    }
                    kit.clock().schedule(() -> send(session, log, left - 1), think);
                });
    }

    /** Whether every client sent all its requests and got every answer. */
    boolean done(Map<String, Integer> shares) {
        return shares.entrySet().stream().allMatch(e -> {
            Log log = logs.get(e.getKey());
            return log != null && log.sent == e.getValue() && log.acks.size() + log.failures.size() == log.sent;
        });
    }
}
