/**
 * Using the library without Spring Boot: {@link dev.synccontext.spring.config.EnableSyncContext @EnableSyncContext}
 * declares the registry, the context scope and the releaser. It sits in a package of its own because it wires
 * the other parts: the root package never depends on them (the parts depend on the root).
 * {@link dev.synccontext.spring.config.RegistryExtensions} composes the registry's extension beans, for it and for
 * Spring Boot's auto-configuration alike.
 *
 * <p>Null-marked (JSpecify): nothing here accepts or returns {@code null} unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.synccontext.spring.config;

import org.jspecify.annotations.NullMarked;
