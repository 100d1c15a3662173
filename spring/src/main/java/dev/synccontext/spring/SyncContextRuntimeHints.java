package dev.synccontext.spring;

import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;

/**
 * The reflection the library does by name, for a native image: the classes whose presence selects an optional
 * part (Logback's MDC, STOMP's thread-bound session, the Kotlin libraries a suspend handler needs). A native
 * image answers {@code Class.forName} only for registered types, so without these the part would be switched
 * off as if its library were absent. The rest is hinted by Spring (handler methods, CGLIB classes) or, per bean,
 * by {@code ContextScopedAotProcessor}.
 */
final class SyncContextRuntimeHints implements RuntimeHintsRegistrar {

    /** Every class the library looks up by name, as it spells it. */
    static final String[] LOOKED_UP = {
        "ch.qos.logback.classic.util.LogbackMDCAdapter",
        "org.slf4j.MDC",
        "org.springframework.messaging.simp.SimpAttributesContextHolder",
        "dev.synccontext.kotlin.SyncContextCoroutinesKt",
        "kotlinx.coroutines.reactor.MonoKt",
        "kotlin.reflect.full.KClasses",
    };

    @Override
    public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
        for (String name : LOOKED_UP) {
            hints.reflection().registerType(TypeReference.of(name));
        }
    }
}
