/**
 * The Spring library: what an application imports to run its code on session contexts. Each part has a
 * package of its own; Spring Boot's wiring for all of them lives in {@code synccontext-spring-boot-autoconfigure}.
 */
@NullMarked
package dev.synccontext.spring;

import org.jspecify.annotations.NullMarked;
