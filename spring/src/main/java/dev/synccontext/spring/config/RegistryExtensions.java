package dev.synccontext.spring.config;

import dev.synccontext.CallbackDecorator;
import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.CompositeCallbackDecorator;
import dev.synccontext.spring.SyncContextBuilderCustomizer;
import java.util.List;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;

/**
 * How the registry's extension beans compose, the same for {@link EnableSyncContext @EnableSyncContext} and for
 * Spring Boot's auto-configuration: every {@link CallbackDecorator} bean as one, and every
 * {@link SyncContextBuilderCustomizer} bean, each in {@code @Order}. None is ever silently dropped.
 */
public final class RegistryExtensions {

    private RegistryExtensions() {
    }

    /**
     * Every {@link CallbackDecorator} bean, composed in {@code @Order} (see {@link CompositeCallbackDecorator});
     * the one bean itself when there is one; {@code null} when there is none.
     */
    public static @Nullable CallbackDecorator decorator(ObjectProvider<CallbackDecorator> decorators) {
        List<CallbackDecorator> all = decorators.orderedStream().toList();
        return switch (all.size()) {
            case 0 -> null;
            case 1 -> all.get(0);
            default -> new CompositeCallbackDecorator(all);
        };
    }

    /** Every {@link SyncContextBuilderCustomizer} bean, in {@code @Order}, as the registry applies them. */
    public static List<Consumer<RendererSyncContext.Builder>> builderCustomizers(
            ObjectProvider<SyncContextBuilderCustomizer> customizers) {
        return customizers.orderedStream()
                .<Consumer<RendererSyncContext.Builder>>map(customizer -> customizer::customize).toList();
    }
}
