package dev.synccontext.autoconfigure.endpoint;

import java.util.Set;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;

/**
 * Whether a caller of the endpoint sees the details (stacks, call sites, who holds the most): Boot's
 * {@link Show} rule, as {@code health} applies it. {@code when-authorized} with no roles shows them to any
 * authenticated caller; with roles, to a caller in one of them. An unauthenticated caller sees them only with
 * {@code always}.
 */
record DetailsVisibility(Show show, Set<String> roles) {

    /** Shown to everyone: what a caller inside the application (not over HTTP or JMX) gets. */
    static final DetailsVisibility ALWAYS = new DetailsVisibility(Show.ALWAYS, Set.of());

    DetailsVisibility {
        roles = Set.copyOf(roles);
    }

    boolean shownTo(SecurityContext caller) {
        return show.isShown(caller, roles);
    }
}
