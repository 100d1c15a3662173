package dev.synccontext.spring.durable.session;

import dev.synccontext.spring.durable.DurableType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@link DurableType} of a {@link Durable} bean class, checked at startup: the application's mapper must
 * round-trip a new instance, or the application does not start (rather than fail at the first snapshot).
 */
public final class DurableBeans {

    private DurableBeans() {
    }

    /**
     * The durable type of bean {@code beanName} of class {@code type}, which carries {@link Durable}.
     *
     * @throws IllegalStateException naming the bean and the fix, when the mapper cannot round-trip its state
     */
    public static DurableType<?> typeOf(String beanName, Class<?> type, JsonMapper mapper) {
        Durable durable = type.getAnnotation(Durable.class);
        if (durable == null) {
            throw new IllegalArgumentException(type.getName() + " is not annotated @Durable");
        }
        String name = durable.name().isEmpty() ? defaultName(type) : durable.name();
        Object instance = newInstance(beanName, type);
        String what = "The @Durable bean '" + beanName + "' (" + type.getName() + ")";
        JsonNode state;
        try {
            state = mapper.valueToTree(instance);
        } catch (JacksonException e) {
            throw new IllegalStateException(what + " cannot be written as JSON by the application's mapper ("
                    + e.getOriginalMessage() + "); give its state getters, or mark what is not state @JsonIgnore", e);
        }
        if (!state.isObject() || state.isEmpty()) {
            throw new IllegalStateException(what + " has no Jackson-visible state, so a snapshot would keep nothing:"
                    + " give it getters and setters (or public fields) for what must survive a deploy, or remove"
                    + " @Durable");
        }
        try {
            mapper.treeToValue(state, type);
        } catch (JacksonException e) {
            throw new IllegalStateException(what + " cannot be read back from its own JSON ("
                    + e.getOriginalMessage() + "); give it setters for its state (or @JsonCreator)", e);
        }
        return DurableType.of(name, type, durable.version());
    }

    /** The class's simple name, decapitalized ({@code Cart} → {@code cart}): never the scoped target's bean name. */
    static String defaultName(Class<?> type) {
        String simple = type.getSimpleName();
        return Character.toLowerCase(simple.charAt(0)) + simple.substring(1);
    }

    private static Object newInstance(String beanName, Class<?> type) {
        try {
            Constructor<?> constructor = type.getDeclaredConstructor();
            if (Modifier.isPrivate(constructor.getModifiers())) {
                throw new NoSuchMethodException("private");
            }
            constructor.setAccessible(true);
            return constructor.newInstance();
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("The @Durable bean '" + beanName + "' (" + type.getName() + ") has no"
                    + " usable no-argument constructor, which restoring its state needs: add one (inject"
                    + " dependencies through fields or setters) or remove @Durable", e);
        }
    }
}
