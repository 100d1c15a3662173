package dev.synccontext.autoconfigure.shutdown;

import org.springframework.boot.context.properties.ConfigurationProperties;

/** Settings of the shutdown drain ({@code synccontext.drain.*}); its deadline is {@code synccontext.shutdown-timeout}. */
@ConfigurationProperties("synccontext.drain")
public class ShutdownProperties {

    /**
     * Whether the application drains on shutdown before the web server's graceful shutdown: readiness
     * refusing traffic, new callbacks refused, accepted ones finished, live subscribers told to go away.
     */
    private boolean enabled = true;

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }
}
