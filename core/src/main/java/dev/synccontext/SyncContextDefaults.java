package dev.synccontext;

import java.time.Duration;

/**
 * The default settings of a context, in one place: {@link RendererSyncContext.Builder}, the
 * {@link dev.synccontext.registry.ContextTemplate} and the starter's {@code synccontext.*} properties all
 * refer to these constants, so a default is written once.
 */
public final class SyncContextDefaults {

    /**
     * Maximum callbacks one drain runs before it resubmits itself to the executor, so that one busy
     * context cannot hold a pool thread while other contexts wait. A guess that measured well: larger runs
     * cost other contexts' latency, smaller ones a hand-off more often (see bench/README.md).
     */
    public static final int MAX_BATCH = 64;

    /** Maximum callbacks waiting per context: 0, unbounded. */
    public static final int MAX_QUEUE_DEPTH = 0;

    /** How long a callback may run before the watchdog reports it as blocked. */
    public static final Duration BLOCKED_THRESHOLD = Duration.ofSeconds(2);

    /** How long a closing context's queued work may take before the registry force-closes it. */
    public static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(30);

    /**
     * About one callback in this many is timed and allocation-probed by an observer (a power of two; 0 =
     * never). At 1 in 256 the observed paths cost 1.1-1.25 times the unobserved ones (see
     * {@link dev.synccontext.statistics.SyncContextStatistics}).
     */
    public static final int SAMPLING_INTERVAL = 256;

    private SyncContextDefaults() {
    }
}
