package dev.synccontext;

/**
 * A 32-bit clock in units of 1,024 ns, so that a sampled queue node can carry its enqueue time in an
 * {@code int} that fits the padding of a 32-byte node. Differences are taken modulo 2^32, which is
 * right for waits shorter than about 73 minutes. Zero means "not sampled".
 */
final class SampleClock {

    private SampleClock() {
    }

    static int now() {
        int t = (int) (System.nanoTime() >>> 10);
        return t == 0 ? 1 : t;
    }

    static long nanosSince(int then) {
        return (((int) (System.nanoTime() >>> 10) - then) & 0xFFFF_FFFFL) << 10;
    }
}
