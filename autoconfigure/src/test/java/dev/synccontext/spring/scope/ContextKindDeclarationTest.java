package dev.synccontext.spring.scope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.synccontext.spring.SyncContextConfigurationException;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.stereotype.Component;

/**
 * A {@code @ContextScoped} bean that declares a kind and a key that contradict each other (a key pattern names keyed
 * contexts, never session ones) fails the startup naming the bean and the fix, although nothing calls the bean:
 * before, the mistake surfaced only at the bean's first call. {@code kind = KEYED} with the key starts.
 */
class ContextKindDeclarationTest {

    @Test
    void aSessionKindWithAKeyPatternFailsTheStartupNamingTheBeanAndTheFix() {
        assertThatThrownBy(() -> start(MisdeclaredApp.class)).satisfies(failure -> {
            Throwable cause = NestedExceptionUtils.getMostSpecificCause(failure);
            assertThat(cause).isInstanceOf(SyncContextConfigurationException.class)
                    .hasMessageContaining("ContextKindDeclarationTest$Misdeclared'")
                    .hasMessageContaining("kind = SESSION, key = \"x\"")
                    .hasMessageContaining("Drop the key to keep kind = SESSION, or use kind = KEYED");
        });
    }

    @Test
    void aKeyedKindWithAKeyPatternStarts() {
        try (ConfigurableApplicationContext started = start(KeyedApp.class)) {
            assertThat(started.getBean(Keyed.class)).isNotNull();
        }
    }

    private static ConfigurableApplicationContext start(Class<?> app) {
        return new SpringApplicationBuilder(app).web(WebApplicationType.NONE).run("--spring.main.banner-mode=off");
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Misdeclared.class)
    static class MisdeclaredApp {
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Keyed.class)
    static class KeyedApp {
    }

    @Component
    @ContextScoped(kind = ContextKind.SESSION, key = "x")
    static class Misdeclared {
    }

    @Component
    @ContextScoped(kind = ContextKind.KEYED, key = "room:*")
    static class Keyed {
    }
}
