package dev.synccontext.spring.session;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a session (an {@code HttpSession} or a WebFlux {@code WebSession}) holds for its context: one
 * small {@code String} attribute, {@code <key>@<node>}. The key is random and made on the session's
 * first use of a context; each node keeps the session's context in its own {@link SessionContexts}
 * under that key. The node part names the node that served the session last, which is how a node
 * notices that a session moved (a hand-off or a split); with session affinity it never changes, so the
 * attribute is written once in the session's life.
 *
 * <p>The value is a {@code String}, so every session store (Spring Session Redis or JDBC, Tomcat
 * persistence, replication) serializes it, and it survives {@code changeSessionId()} like any other
 * attribute. It is never a session id and never secret: knowing a key gives nothing but the name of a
 * node-local map entry.
 */
record SessionHandle(String key, String node) {

    /** The session attribute that holds the handle. */
    static final String ATTRIBUTE = "dev.synccontext.session";

    private static final SecureRandom RANDOM = new SecureRandom();

    SessionHandle {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(node, "node");
    }

    /** A new random key: 96 bits, 16 URL-safe characters. */
    static String newKey() {
        byte[] bytes = new byte[12];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /**
     * The handle stored in {@code value}, or {@code null} if {@code value} is not one (absent, or written
     * by something else under the same name).
     */
    static @Nullable SessionHandle parse(@Nullable Object value) {
        if (!(value instanceof String s)) {
            return null;
        }
        int at = s.indexOf('@');
        if (at <= 0) {
            return null;
        }
        return new SessionHandle(s.substring(0, at), s.substring(at + 1));
    }

    /** The attribute value. */
    String value() {
        return key + '@' + node;
    }
}
