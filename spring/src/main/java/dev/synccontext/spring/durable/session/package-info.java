/**
 * Sessions' {@link dev.synccontext.spring.durable.session.Durable @Durable} context-scoped beans kept in a
 * {@link dev.synccontext.spring.durable.StateStore}: checkpoint at quiescence, restore before first use, final
 * snapshot and release at graceful shutdown, one fenced owner per session.
 */
@NullMarked
package dev.synccontext.spring.durable.session;

import org.jspecify.annotations.NullMarked;
