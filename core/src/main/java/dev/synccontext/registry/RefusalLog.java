package dev.synccontext.registry;

import dev.synccontext.ContextClock;
import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Callbacks that a thread of the registry's own (a broadcast, a timer on its clock, its shutdown) could not
 * hand to a context, because the context refused them (closed meanwhile, or full). There is no caller to
 * throw to on such a thread, so each one is counted, logged at DEBUG with the context's name and the
 * refusal, and summed up in one WARNING per {@link #WARN_PERIOD} at most (on the registry's clock), so a
 * broadcast to thousands of sessions that are ending cannot flood the log.
 */
final class RefusalLog {

    /** At most one WARNING per this much time; the rest are at DEBUG. */
    static final Duration WARN_PERIOD = Duration.ofMinutes(1);

    private static final System.Logger LOG = System.getLogger(SyncContextRegistry.class.getName());

    private final ContextClock clock;
    private final LongAdder refused = new LongAdder();
    private final AtomicLong unwarned = new AtomicLong();
    private final AtomicLong nextWarnAt;

    RefusalLog(ContextClock clock) {
        this.clock = clock;
        this.nextWarnAt = new AtomicLong(clock.nanoTime());
    }

    /** Counts and logs one refusal of {@code what} by {@code context}. */
    void refused(RendererSyncContext context, String what, RuntimeException why) {
        refused.increment();
        unwarned.incrementAndGet();
        LOG.log(System.Logger.Level.DEBUG, () -> what + " was refused by context '" + context.name() + "': " + why);
        long now = clock.nanoTime();
        long due = nextWarnAt.get();
        // The CAS picks one thread per period; the others' refusals go into the next summary.
        if (now - due >= 0 && nextWarnAt.compareAndSet(due, now + WARN_PERIOD.toNanos())) {
            long count = unwarned.getAndSet(0);
            LOG.log(System.Logger.Level.WARNING, count + " callback(s) refused by their context since the last such"
                    + " warning (at most one per " + WARN_PERIOD + "; each at DEBUG). The latest: " + what
                    + " refused by context '" + context.name() + "': " + why.getMessage());
        }
    }

    long count() {
        return refused.sum();
    }
}
