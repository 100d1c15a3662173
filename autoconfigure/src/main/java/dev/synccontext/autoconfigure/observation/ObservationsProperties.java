package dev.synccontext.autoconfigure.observation;

import org.springframework.boot.context.properties.ConfigurationProperties;

/** Settings of the observations of queued work ({@code synccontext.observations.*}). */
@ConfigurationProperties("synccontext.observations")
public class ObservationsProperties {

    /**
     * Whether each queued callback records an observation of its run (with its queue wait), child of the
     * observation current where it was queued. Inline callbacks never record one.
     */
    private boolean enabled;

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }
}
