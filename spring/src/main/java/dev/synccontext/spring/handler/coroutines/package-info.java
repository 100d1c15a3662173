/**
 * Kotlin {@code suspend} handler methods with {@link dev.synccontext.spring.handler.OnContext @OnContext}:
 * the coroutine that Spring starts for such a method runs on the session's context through the
 * {@code synccontext-kotlin} dispatcher, so every part of it, after each suspension, is a callback of that
 * context. Used by the {@code mvc} and {@code webflux} parts; only {@link
 * dev.synccontext.spring.handler.coroutines.SuspendingBodies} is touched by code that runs without
 * Kotlin, and it names no Kotlin type, so a Java application never loads one.
 *
 * <p>Null-marked (JSpecify): nothing here accepts or returns {@code null} unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.synccontext.spring.handler.coroutines;

import org.jspecify.annotations.NullMarked;
