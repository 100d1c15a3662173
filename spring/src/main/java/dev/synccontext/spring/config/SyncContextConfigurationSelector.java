package dev.synccontext.spring.config;

import org.springframework.context.annotation.DeferredImportSelector;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Imports {@link SyncContextConfiguration} after every other configuration class has been read, so that its
 * "no registry defined yet" check sees an application's own registry bean, even one declared in the class that
 * carries {@link EnableSyncContext} (a plain {@code @Import} would register ours first).
 */
final class SyncContextConfigurationSelector implements DeferredImportSelector {

    @Override
    public String[] selectImports(AnnotationMetadata importingClassMetadata) {
        return new String[] { SyncContextConfiguration.class.getName() };
    }
}
