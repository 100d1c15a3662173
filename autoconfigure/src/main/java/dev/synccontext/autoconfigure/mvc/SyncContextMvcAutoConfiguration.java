package dev.synccontext.autoconfigure.mvc;

import dev.synccontext.autoconfigure.SyncContextAutoConfiguration;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import dev.synccontext.registry.SyncContextRegistry;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.context.annotation.Bean;

/**
 * Spring MVC: a controller's already-completed {@code CompletableFuture} (an inline
 * {@code invokeAsync} on an idle context) is written at once, without an async dispatch (see
 * {@link CompletedFutureReturnValueHandler}). Off with {@code synccontext.mvc.write-completed-futures=false}.
 */
@AutoConfiguration(after = SyncContextAutoConfiguration.class)
@ConditionalOnWebApplication(type = Type.SERVLET)
@ConditionalOnClass(name = "org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter")
@ConditionalOnBean(SyncContextRegistry.class)
@ConditionalOnBooleanProperty(name = "synccontext.mvc.write-completed-futures", matchIfMissing = true)
public final class SyncContextMvcAutoConfiguration {

    @Bean
    static BeanPostProcessor syncContextCompletedFutureReturnValueHandler() {
        return CompletedFutureReturnValueHandler.installer();
    }
}
