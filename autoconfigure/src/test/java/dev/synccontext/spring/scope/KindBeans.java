package dev.synccontext.spring.scope;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.testing.Browser;
import org.springframework.stereotype.Component;

/**
 * The beans of the context-kind tests on either web stack ({@code ContextKindTest}, {@code
 * ContextKindWebFluxHttpTest}): a session's own profile ({@code kind = SESSION}) and a room's bean
 * ({@code key = "room:*"}), and the check of {@code find} that both stacks make over HTTP.
 */
public final class KindBeans {

    private KindBeans() {
    }

    /**
     * {@code GET /has-profile} (a {@code find} on the session's context) answers false twice, so finding created no
     * profile, and true once {@code POST /profile} has made one.
     */
    public static void assertFindCreatesNoProfile(Browser browser) {
        assertThat(browser.get("/has-profile").body()).as("before any call").isEqualTo("false");
        assertThat(browser.get("/has-profile").body()).as("find created nothing").isEqualTo("false");
        browser.post("/profile");
        assertThat(browser.get("/has-profile").body()).isEqualTo("true");
    }

    /** One per session; counts its calls. */
    @Component
    @ContextScoped(kind = ContextKind.SESSION)
    public static class Profile {
        private int visits;

        public String name() {
            return "profile " + ++visits;
        }
    }

    /** One per room context; names the context it runs on. */
    @Component
    @ContextScoped(key = "room:*")
    public static class Room {
        public String name() {
            return "room " + RendererSyncContext.current().orElseThrow().name();
        }
    }
}
