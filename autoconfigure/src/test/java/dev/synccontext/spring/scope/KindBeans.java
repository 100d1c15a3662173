package dev.synccontext.spring.scope;

import dev.synccontext.RendererSyncContext;
import org.springframework.stereotype.Component;

/**
 * The beans of the context-kind tests on either web stack ({@code ContextKindTest}, {@code
 * ContextKindWebFluxHttpTest}): a session's own profile ({@code kind = SESSION}) and a room's bean
 * ({@code key = "room:*"}).
 */
public final class KindBeans {

    private KindBeans() {
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
