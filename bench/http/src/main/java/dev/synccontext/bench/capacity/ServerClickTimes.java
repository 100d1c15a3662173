package dev.synccontext.bench.capacity;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import org.springframework.stereotype.Component;

/**
 * The server's share of a click's wait: from the click request reaching the application ({@link ClickArrivalFilter})
 * to its update being encoded for the tab's stream ({@link TimedLiveEncoder}), which happens in the subscriber's
 * drain just before the write. The load client times the whole path, due click to update read; this part, measured
 * in the same run, tells the server's wait from the client's own and the sockets'.
 *
 * <p>Counts in 1 ms buckets up to 10 s (the last bucket holds everything longer), so a percentile is exact to the
 * millisecond. Thread-safe: arrivals and encodes run on request threads and drains at once.
 */
@Component
public class ServerClickTimes {

    private static final int BUCKETS = 10_000;

    private final ConcurrentHashMap<Long, Long> arrivals = new ConcurrentHashMap<>();
    private volatile AtomicLongArray millis = new AtomicLongArray(BUCKETS);

    void arrived(long nonce) {
        arrivals.put(nonce, System.nanoTime());
    }

    void encoded(long nonce) {
        Long arrived = arrivals.remove(nonce);
        if (arrived != null) {
            long waited = (System.nanoTime() - arrived) / 1_000_000;
            millis.incrementAndGet((int) Math.min(BUCKETS - 1, waited));
        }
    }

    /**
     * Counts since the last call and starts a new window; a click counted while the window turns may land in either.
     *
     * @return {@code count p50 p99 max} with the percentiles and max in whole milliseconds
     */
    public String nextWindow() {
        AtomicLongArray last = millis;
        millis = new AtomicLongArray(BUCKETS);
        long count = 0;
        for (int i = 0; i < BUCKETS; i++) {
            count += last.get(i);
        }
        return count + " " + percentile(last, count, 0.50) + " " + percentile(last, count, 0.99) + " "
                + percentile(last, count, 1.0);
    }

    private static int percentile(AtomicLongArray counts, long count, double q) {
        long rank = Math.max(1, (long) Math.ceil(q * count));
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            seen += counts.get(i);
            if (seen >= rank) {
                return i;
            }
        }
        return 0;
    }
}
