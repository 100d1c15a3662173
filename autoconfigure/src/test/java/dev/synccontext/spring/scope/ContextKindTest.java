package dev.synccontext.spring.scope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.spring.handler.OnContext;
import dev.synccontext.testing.Browser;
import dev.synccontext.testing.OnRandomPort;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/** A bean that declares its kind of context is never created in another kind; find never creates. */
@OnRandomPort(classes = ContextKindTest.App.class)
class ContextKindTest {

    @Autowired
    SyncContextRegistry registry;

    @Autowired
    KindBeans.Profile profile;

    @Autowired
    KindBeans.Room room;

    @Autowired
    ContextBeanScope scope;

    @Autowired
    Notes notes;

    @Test
    void aSessionBeanCalledInARoomsCallbackFailsNamingTheBeanAndTheContext() {
        inKeyedContext("room:1", roomContext -> {
            assertThatThrownBy(() -> roomContext.invokeAsync(profile::name).join())
                    .isInstanceOf(CompletionException.class).cause().isInstanceOf(WrongContextKindException.class)
                    .hasMessageContaining("KindBeans$Profile'").hasMessageContaining("kind = SESSION")
                    .hasMessageContaining("'room:1' (a KEYED context)");
            assertThat(scope.find(roomContext, KindBeans.Profile.class)).as("nothing was created for the room")
                    .isEmpty();
        });
    }

    @Test
    void aRoomBeanCalledFromASessionsHandlerFailsAndOneOfAnotherKeyToo(Browser user) {
        assertThat(user.get("/room").body()).isEqualTo("WrongContextKindException");
        inKeyedContext("lobby", lobby -> {
            assertThatThrownBy(() -> lobby.invokeAsync(room::name).join()).cause()
                    .isInstanceOf(WrongContextKindException.class).hasMessageContaining("key = \"room:*\"");
        });
    }

    @Test
    void eachBeanResolvesInItsOwnKind(Browser user) {
        assertThat(user.post("/profile").body()).isEqualTo("profile 1");
        assertThat(user.post("/profile").body()).isEqualTo("profile 2");
        inKeyedContext("room:2", roomContext -> {
            assertThat(roomContext.invokeAsync(room::name).join()).isEqualTo("room room:2");
        });
    }

    @Test
    void premiseABeanThatDeclaresNoKindIsCreatedFreshInARoomAsBefore(Browser user) {
        assertThat(user.post("/notes").body()).isEqualTo("1");
        assertThat(user.post("/notes").body()).isEqualTo("2");
        inKeyedContext("room:4", roomContext -> {
            assertThat(roomContext.invokeAsync(notes::add).join())
                    .as("the default kind (CURRENT): the room silently gets an empty instance of its own").isEqualTo(1);
        });
    }

    @Test
    void findCreatesNothingInASessionOrAKeyedContext(Browser user) {
        KindBeans.assertFindCreatesNoProfile(user);
        inKeyedContext("room:3", roomContext -> {
            int before = scope.contextsWithBeans();
            assertThat(scope.find(roomContext, KindBeans.Room.class)).isEmpty();
            assertThat(scope.contextsWithBeans()).isEqualTo(before);
            roomContext.invokeAsync(room::name).join();
            assertThat(scope.find(roomContext, KindBeans.Room.class)).isPresent();
        });
    }

    /** Runs {@code body} with the keyed context {@code key}, and removes that context afterwards. */
    private void inKeyedContext(String key, Consumer<RendererSyncContext> body) {
        RendererSyncContext context = registry.forKey(key);
        try {
            body.accept(context);
        } finally {
            registry.remove(key);
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({ KindBeans.Profile.class, KindBeans.Room.class, Notes.class, Pages.class })
    static class App {
    }

    @Component
    @ContextScoped
    static class Notes {
        private int count;

        public int add() {
            return ++count;
        }
    }

    @RestController
    record Pages(KindBeans.Profile scopedProfile, KindBeans.Room scopedRoom, Notes scopedNotes, ContextBeanScope scope,
            RendererSyncContext context) {

        @OnContext
        @PostMapping("/profile")
        public String profile() {
            return scopedProfile.name();
        }

        @OnContext
        @PostMapping("/notes")
        public int notes() {
            return scopedNotes.add();
        }

        @OnContext
        @GetMapping("/room")
        public String room() {
            try {
                return scopedRoom.name();
            } catch (WrongContextKindException expected) {
                return expected.getClass().getSimpleName();
            }
        }

        @GetMapping("/has-profile")
        public String hasProfile() {
            return String.valueOf(scope.find(context, KindBeans.Profile.class).isPresent());
        }
    }
}
