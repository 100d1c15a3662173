package dev.synccontext.autoconfigure.session;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * The defaults of {@code synccontext.session.*} that depend on the environment: the node id and the
 * idle timeout.
 */
final class SessionSettings {

    /** Session timeout properties, most specific first; Spring Boot's default applies when none is set. */
    private static final String[] SESSION_TIMEOUTS = { "spring.session.timeout", "server.servlet.session.timeout",
            "server.reactive.session.timeout" };

    private static final Duration BOOT_DEFAULT_SESSION_TIMEOUT = Duration.ofMinutes(30);

    private SessionSettings() {
    }

    /**
     * {@code configured}, else the host name and six random hex digits: unique per start, so a node that
     * restarts counts the sessions it serves again as hand-offs (its contexts were lost), and two
     * applications in one JVM (tests) differ.
     */
    static String nodeId(@Nullable String configured) {
        if (configured != null && !configured.isBlank()) {
            return configured;
        }
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException | SecurityException e) {
            host = "node";
        }
        int dot = host.indexOf('.');
        host = (dot > 0 ? host.substring(0, dot) : host).replace('@', '-').toLowerCase(Locale.ROOT);
        if (host.length() > 24) {
            host = host.substring(0, 24);
        }
        return host + "-" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt()).substring(2);
    }

    /**
     * {@code configured}, else a little above the session timeout (the first of
     * {@code spring.session.timeout}, {@code server.servlet.session.timeout},
     * {@code server.reactive.session.timeout}, else Boot's 30 minutes): the timeout plus a tenth, at least
     * 10 seconds more. A guess, stated as one: long enough that a live session served by this node is
     * never evicted (it would have expired), short enough that contexts of sessions that ended unseen, or
     * moved away, do not linger.
     */
    static Duration idleTimeout(@Nullable Duration configured, Environment environment) {
        if (configured != null) {
            return configured;
        }
        Duration sessionTimeout = sessionTimeout(environment);
        Duration margin = sessionTimeout.dividedBy(10);
        return sessionTimeout.plus(margin.compareTo(Duration.ofSeconds(10)) < 0 ? Duration.ofSeconds(10) : margin);
    }

    static Duration sessionTimeout(Environment environment) {
        Binder binder = Binder.get(environment);
        for (String property : SESSION_TIMEOUTS) {
            Duration timeout = binder.bind(property, Duration.class).orElse(null);
            if (timeout != null && !timeout.isNegative() && !timeout.isZero()) {
                return timeout;
            }
        }
        return BOOT_DEFAULT_SESSION_TIMEOUT;
    }
}
