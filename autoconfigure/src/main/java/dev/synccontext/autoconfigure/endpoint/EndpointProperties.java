package dev.synccontext.autoconfigure.endpoint;

import java.util.LinkedHashSet;
import java.util.Set;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * What {@code /actuator/synccontext} shows to whom ({@code synccontext.endpoint.*}), in the manner of Boot's
 * {@code management.endpoint.health.show-details} and {@code roles}.
 */
@ConfigurationProperties("synccontext.endpoint")
public class EndpointProperties {

    /**
     * When to show the details: blocked callbacks' stacks and call sites, and the contexts, live channels and
     * durable sessions that hold the most (never, when-authorized or always).
     */
    private Show showDetails = Show.WHEN_AUTHORIZED;

    /**
     * Roles a caller needs to see the details when show-details is when-authorized; empty: any authenticated
     * caller.
     */
    private Set<String> roles = new LinkedHashSet<>();

    /** Maximum number of contexts, of live channels and of durable sessions listed as holding the most. */
    private int top = 10;

    public Show getShowDetails() {
        return showDetails;
    }

    public void setShowDetails(Show showDetails) {
        this.showDetails = showDetails;
    }

    public Set<String> getRoles() {
        return roles;
    }

    public void setRoles(Set<String> roles) {
        this.roles = roles;
    }

    public int getTop() {
        return top;
    }

    public void setTop(int top) {
        if (top < 1 || top > 1000) {
            throw new IllegalArgumentException("synccontext.endpoint.top must be between 1 and 1000, not " + top);
        }
        this.top = top;
    }
}
