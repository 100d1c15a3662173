/**
 * Boot's wiring of WebSocket and STOMP contexts (the library's {@code dev.synccontext.spring.websocket}).
 *
 * <p>Null-marked (JSpecify): nothing here accepts or returns {@code null} unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.synccontext.autoconfigure.websocket;

import org.jspecify.annotations.NullMarked;
