package dev.synccontext.autoconfigure.health;

import dev.synccontext.ExecutorStatistics;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The default executor's saturation: down when the threads blocked in callbacks reach the configured share of
 * its cap, or when it is at its cap with drains waiting for a thread (then every context's queued work waits
 * for a blocked callback to return). The details carry the figures either way.
 */
final class ExecutorHealthIndicator implements HealthIndicator {

    private final ExecutorStatistics executor;
    private final double saturation;

    ExecutorHealthIndicator(ExecutorStatistics executor, double saturation) {
        this.executor = executor;
        this.saturation = saturation;
    }

    @Override
    public Health health() {
        int max = executor.maxThreads();
        int blocked = executor.blockedThreads();
        int idle = executor.idleThreads();
        int queued = executor.queuedTasks();
        boolean atCap = executor.threads() >= max && idle == 0 && queued > 0;
        boolean saturated = blocked >= Math.ceil(saturation * max);
        Health.Builder health = atCap || saturated ? Health.down() : Health.up();
        return health.withDetail("threads", executor.threads())
                .withDetail("running", executor.runningThreads())
                .withDetail("blocked", blocked)
                .withDetail("idle", idle)
                .withDetail("maxThreads", max)
                .withDetail("queuedDrains", queued)
                .withDetail("capReached", executor.capReached())
                .withDetail("blockedLimit", (int) Math.ceil(saturation * max))
                .build();
    }
}
