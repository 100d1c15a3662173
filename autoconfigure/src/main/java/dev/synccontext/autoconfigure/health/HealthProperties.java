package dev.synccontext.autoconfigure.health;

import org.springframework.boot.context.properties.ConfigurationProperties;

/** The optional health contributors ({@code synccontext.health.*}). */
@ConfigurationProperties("synccontext.health")
public class HealthProperties {

    /**
     * Whether to contribute the default executor's saturation and the durable state store's reachability to
     * the health endpoint (never to the readiness group unless it includes them).
     */
    private boolean enabled = false;

    /**
     * Share of the default executor's thread cap that may be blocked in callbacks before its health is down
     * (between 0 and 1).
     */
    private double executorSaturation = 0.9;

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public double getExecutorSaturation() {
        return executorSaturation;
    }

    public void setExecutorSaturation(double executorSaturation) {
        if (!(executorSaturation > 0 && executorSaturation <= 1)) {
            throw new IllegalArgumentException("synccontext.health.executor-saturation must be above 0 and at most 1, not "
                    + executorSaturation);
        }
        this.executorSaturation = executorSaturation;
    }
}
