package dev.synccontext;

import java.util.concurrent.atomic.LongAdder;

/** THROWAWAY (branch contended-counters, not for merge): counts for issue 26's Contended slow mode. */
public final class ProbeCounters {
    public static final LongAdder CALLS = new LongAdder();
    public static final LongAdder QUEUED_CALLS = new LongAdder();

    static {
        String file = System.getProperty("probe.exitReport");
        if (file != null) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    java.nio.file.Files.writeString(java.nio.file.Path.of(file), "PROBE calls=" + CALLS.sum() + " "
                            + report(Math.max(1, CALLS.sum())) + System.lineSeparator(),
                            java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }));
        }
    }
    public static final LongAdder INSTALLS = new LongAdder();
    public static final LongAdder TAIL_WAITS = new LongAdder();
    public static final LongAdder HEAD_WAITS = new LongAdder();
    public static final LongAdder CLAIM_WAITS = new LongAdder();
    public static final LongAdder YIELDS = new LongAdder();
    public static final LongAdder HANDOFFS = new LongAdder();
    public static final LongAdder GIVE_UP_FAILS = new LongAdder();
    public static final LongAdder DRAINS = new LongAdder();

    private ProbeCounters() {
    }

    public static String report(long calls) {
        double k = 1000.0 / calls;
        return String.format("per 1000 calls: queuedCalls=%.2f installs=%.2f handoffs=%.2f drains=%.2f tailWaits=%.3f headWaits=%.3f claimWaits=%.3f yields=%.3f giveUpFails=%.3f",
                QUEUED_CALLS.sum() * k, INSTALLS.sum() * k, HANDOFFS.sum() * k, DRAINS.sum() * k, TAIL_WAITS.sum() * k,
                HEAD_WAITS.sum() * k, CLAIM_WAITS.sum() * k, YIELDS.sum() * k, GIVE_UP_FAILS.sum() * k);
    }

    public static void reset() {
        for (LongAdder a : new LongAdder[] {QUEUED_CALLS, INSTALLS, TAIL_WAITS, HEAD_WAITS, CLAIM_WAITS, YIELDS, HANDOFFS, GIVE_UP_FAILS, DRAINS}) {
            a.reset();
        }
    }
}
