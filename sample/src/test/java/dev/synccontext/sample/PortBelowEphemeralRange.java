package dev.synccontext.sample;

import java.io.BufferedReader;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A free TCP port for a server that the test starts later and must name earlier (a Prometheus configuration written
 * before the sample listens). Picked below the kernel's ephemeral range ({@code net.ipv4.ip_local_port_range}): the
 * ports the kernel hands out, for a bind to port 0 and for the local end of an outgoing connection, all come from
 * that range, so no other test's server or client on this shared machine takes this one between the probe here and
 * the server's bind; only a process that binds this very number would.
 */
final class PortBelowEphemeralRange {

    private static final Path RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    /** Linux's default lower bound, when the range cannot be read. */
    private static final int DEFAULT_EPHEMERAL_LOW = 32768;
    /** Ports from here up: above the well-known and the commonly configured ones (8080, 9090, 6379...). */
    private static final int LOWEST = 20000;
    private static final int ATTEMPTS = 50;

    private PortBelowEphemeralRange() {
    }

    /** A port in {@code [20000, ephemeral low)} that nothing listens on now (probed on every interface). */
    static int pick() {
        int high = ephemeralLow();
        if (high - LOWEST < 1000) {
            throw new IllegalStateException("The ephemeral port range starts at " + high + ": no room below it from "
                    + LOWEST + " (see " + RANGE + ")");
        }
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(LOWEST, high);
            try (ServerSocket probe = new ServerSocket(port)) {
                return probe.getLocalPort();
            } catch (IOException taken) {
                // in use: another number
            }
        }
        throw new IllegalStateException("No free port in [" + LOWEST + ", " + high + ") after " + ATTEMPTS + " attempts");
    }

    private static int ephemeralLow() {
        try {
            // A line, not Files.readString: /proc files report size 0, and a read sized by it may stop short.
            try (BufferedReader reader = Files.newBufferedReader(RANGE)) {
                return Integer.parseInt(reader.readLine().trim().split("\\s+")[0]);
            }
        } catch (IOException | RuntimeException unreadable) {
            return DEFAULT_EPHEMERAL_LOW;
        }
    }
}
