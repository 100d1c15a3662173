package dev.synccontext.spring.webflux;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.spring.handler.OnContext;
import dev.synccontext.spring.scope.ContextBeanScope;
import dev.synccontext.spring.scope.KindBeans;
import dev.synccontext.spring.scope.WrongContextKindException;
import dev.synccontext.testing.Browser;
import dev.synccontext.testing.OnRandomPort;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * Declared kinds of context on WebFlux, over real HTTP on Netty: a WebSession's {@code kind = SESSION} bean is
 * that session's own, is never created for a room, and a room's bean is refused in a WebSession's handler; {@code
 * find} creates nothing. The servlet stack's twin is {@code ContextKindTest}, STOMP's
 * {@code HttpSessionContextStompTest}.
 */
@OnRandomPort(classes = ContextKindWebFluxHttpTest.App.class, properties = "spring.main.web-application-type=reactive")
class ContextKindWebFluxHttpTest {

    @Autowired
    SyncContextRegistry registry;

    @Autowired
    KindBeans.Profile profile;

    @Autowired
    ContextBeanScope scope;

    @Test
    void eachWebSessionHasItsOwnSessionKindBean(Browser alice, Browser bob) {
        assertThat(alice.post("/profile").body()).isEqualTo("profile 1");
        assertThat(alice.post("/profile").body()).isEqualTo("profile 2");
        assertThat(bob.post("/profile").body()).as("another WebSession, another instance").isEqualTo("profile 1");
    }

    @Test
    void aSessionBeanCalledInARoomsCallbackFailsAndNothingIsCreatedForTheRoom() {
        RendererSyncContext roomContext = registry.forKey("room:flux");
        try {
            assertThatThrownBy(() -> roomContext.invokeAsync(profile::name).join())
                    .isInstanceOf(CompletionException.class).cause().isInstanceOf(WrongContextKindException.class)
                    .hasMessageContaining("kind = SESSION").hasMessageContaining("'room:flux' (a KEYED context)");
            assertThat(scope.find(roomContext, KindBeans.Profile.class)).as("nothing was created for the room")
                    .isEmpty();
        } finally {
            registry.remove("room:flux");
        }
    }

    @Test
    void aRoomBeanCalledFromAWebSessionsHandlerFails(Browser user) {
        assertThat(user.get("/room").body()).isEqualTo("WrongContextKindException");
    }

    @Test
    void findInAWebSessionsContextCreatesNothing(Browser carol) {
        KindBeans.assertFindCreatesNoProfile(carol);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({ KindBeans.Profile.class, KindBeans.Room.class, Pages.class })
    static class App {
    }

    @RestController
    static class Pages {
        private final KindBeans.Profile profile;
        private final KindBeans.Room room;
        private final ContextBeanScope scope;

        Pages(KindBeans.Profile profile, KindBeans.Room room, ContextBeanScope scope) {
            this.profile = profile;
            this.room = room;
            this.scope = scope;
        }

        @OnContext
        @PostMapping("/profile")
        public Mono<String> profile() {
            return Mono.just(profile.name());
        }

        @OnContext
        @GetMapping("/room")
        public Mono<String> room() {
            try {
                return Mono.just(room.name());
            } catch (WrongContextKindException expected) {
                return Mono.just(expected.getClass().getSimpleName());
            }
        }

        /** Not on the context: a plain handler asks whether the WebSession's context holds a profile. */
        @GetMapping("/has-profile")
        public Mono<String> hasProfile(RendererSyncContext context) {
            return Mono.just(String.valueOf(scope.find(context, KindBeans.Profile.class).isPresent()));
        }
    }
}
