package dev.synccontext;

/**
 * The time of a sampled queue node, read off {@link System#nanoTime()} as 32 bits in units of 1,024 ns,
 * so that the node carries its enqueue time in an {@code int} that fits the padding of a 32-byte node.
 * Not a clock of its own: {@link ContextClock} is the clock. Differences are taken modulo 2^32, which is
 * right for waits shorter than about 73 minutes. Zero means "not sampled".
 */
final class SampleTime {

    private SampleTime() {
    }

    static int now() {
        int t = (int) (System.nanoTime() >>> 10);
        return t == 0 ? 1 : t;
    }

    static long nanosSince(int then) {
        return (((int) (System.nanoTime() >>> 10) - then) & 0xFFFF_FFFFL) << 10;
    }
}
