package dev.synccontext;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Finds the {@link VarHandle} of a field that a class moves by CAS, in that class's static initializer. A
 * field that is not there (renamed, or its type changed) is a mistake in the build, not a state to handle:
 * it fails the class's initialization.
 */
final class FieldHandles {

    private FieldHandles() {
    }

    /**
     * The handle of the field {@code name} of type {@code type} declared by {@code owner}, found with
     * {@code lookup} (the calling class's own {@code MethodHandles.lookup()}, which may see its private fields).
     */
    static VarHandle find(MethodHandles.Lookup lookup, Class<?> owner, String name, Class<?> type) {
        try {
            return lookup.findVarHandle(owner, name, type);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
