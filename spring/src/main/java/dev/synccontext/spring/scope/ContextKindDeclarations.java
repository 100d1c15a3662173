package dev.synccontext.spring.scope;

import dev.synccontext.spring.SyncContextConfigurationException;

/**
 * Checks what a {@link ContextScoped} bean declares about its contexts, at startup ({@link ProxyableBeansCheck}
 * runs it for every context-scoped bean) and again when the scope first reads it: a key pattern names keyed
 * contexts, so it goes with {@link ContextKind#KEYED} or no kind at all.
 */
final class ContextKindDeclarations {

    private ContextKindDeclarations() {
    }

    /**
     * @throws SyncContextConfigurationException naming the bean and the fix when it declares a key with a kind
     *     other than {@code KEYED}
     */
    static void check(String beanName, ContextScoped declared) {
        if (declared.key().isEmpty() || declared.kind() == ContextKind.CURRENT || declared.kind() == ContextKind.KEYED) {
            return;
        }
        throw new SyncContextConfigurationException("Context-scoped bean '" + beanName + "' declares @ContextScoped(kind = "
                + declared.kind() + ", key = \"" + declared.key() + "\"): a key pattern names keyed contexts"
                + " (registry.forKey), which are never " + declared.kind() + " contexts, so the bean could never be"
                + " created.", "Drop the key to keep kind = " + declared.kind() + ", or use kind = KEYED (or no kind)"
                + " with key = \"" + declared.key() + "\".");
    }
}
