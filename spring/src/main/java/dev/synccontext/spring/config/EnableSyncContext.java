package dev.synccontext.spring.config;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.context.annotation.Import;

/**
 * Wires the library's core into a Spring Framework application without Spring Boot: put it on one
 * {@code @Configuration} class.
 *
 * <p>It gives, under the bean names Spring Boot's auto-configuration uses:
 * <ul>
 * <li>{@code syncContextRegistry}: the {@link dev.synccontext.registry.SyncContextRegistry} every context is
 * built by, with the core's defaults (the elastic executor, {@link dev.synccontext.SyncContextDefaults}), every
 * {@link dev.synccontext.CallbackDecorator} bean composed in {@code @Order} and every
 * {@link dev.synccontext.spring.SyncContextBuilderCustomizer} bean applied in {@code @Order}; only when the
 * application defines no {@code SyncContextRegistry} of its own (checked after every other configuration class,
 * so one declared next to this annotation counts);</li>
 * <li>the {@link dev.synccontext.spring.scope.ContextScoped @ContextScoped} scope (registered by
 * {@link dev.synccontext.spring.scope.ContextScopeRegistrar}, not strict) and
 * {@link dev.synccontext.spring.scope.ProxyableBeansCheck}, which fails the startup for a class its proxy
 * cannot stand for;</li>
 * <li>the {@link dev.synccontext.spring.SyncContextReleaser}, which hands a scoped context back to its registry
 * when its scope ends.</li>
 * </ul>
 *
 * <p>Nothing else: no {@code @OnContext} adapter, no session contexts, no injected {@code rendererSyncContext},
 * no metrics; {@code spring/README.md} ("Without Spring Boot") shows what a Spring MVC application declares for
 * those. Not for Spring Boot applications: the starter declares the same beans under the same names, and the two
 * would collide.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Import(SyncContextConfigurationSelector.class)
public @interface EnableSyncContext {
}
