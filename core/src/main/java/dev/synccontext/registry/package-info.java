/**
 * Many contexts with one set of settings: {@link dev.synccontext.registry.SyncContextRegistry} creates
 * contexts from a {@link dev.synccontext.registry.ContextTemplate}, groups them by scope (one
 * {@link dev.synccontext.statistics.SyncContextStatistics} per scope), keeps contexts by key (with an idle
 * timeout if asked), broadcasts to many of them (each refusal counted, never thrown; a window at a time when
 * asynchronous, so that other work does not wait behind the whole broadcast), and closes
 * them gracefully (queued work may finish within the shutdown timeout, then they are force-closed).
 * JDK only: plain Java, servlet and Vert.x applications use it as the Spring Boot starter does.
 *
 * <p>Null-marked (JSpecify): nothing here accepts or returns {@code null} unless annotated.
 */
@NullMarked
package dev.synccontext.registry;

import org.jspecify.annotations.NullMarked;
