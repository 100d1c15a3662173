package dev.synccontext.spring.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.testing.Browser;

/**
 * The context names of two browsers, each with a session of its own, as an endpoint that answers its request's
 * context name gives them: what every web stack must show first, that a session keeps one context and that another
 * session gets another.
 */
public record TwoSessions(String first, String second) {

    /**
     * Asks {@code path} twice for each browser, and checks that each session's context is named {@code session-…},
     * is the same on the second request, and is not the other session's.
     */
    public static TwoSessions ask(Browser first, Browser second, String path) {
        TwoSessions contexts = new TwoSessions(first.get(path).body(), second.get(path).body());
        assertThat(contexts.first).startsWith("session-").isNotEqualTo(contexts.second);
        assertThat(contexts.second).startsWith("session-");
        assertThat(first.get(path).body()).as("the same session cookie, the same context").isEqualTo(contexts.first);
        assertThat(second.get(path).body()).as("the same session cookie, the same context").isEqualTo(contexts.second);
        return contexts;
    }
}
