package dev.synccontext;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import org.jspecify.annotations.Nullable;

/** Whether a thread is virtual, on Java 21+ ({@code Thread.isVirtual()}); always false on Java 17. */
final class ThreadKinds {

    private static final @Nullable MethodHandle IS_VIRTUAL = isVirtualHandle();

    private ThreadKinds() {
    }

    static boolean isVirtual(Thread thread) {
        if (IS_VIRTUAL == null) {
            return false;
        }
        try {
            return (boolean) IS_VIRTUAL.invokeExact(thread);
        } catch (Throwable unexpected) {
            return false;
        }
    }

    private static @Nullable MethodHandle isVirtualHandle() {
        try {
            return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual",
                    MethodType.methodType(boolean.class));
        } catch (NoSuchMethodException | IllegalAccessException beforeJava21) {
            return null;
        }
    }
}
