/**
 * Live channels over Spring's web stacks: the transports that carry a core
 * {@link dev.synccontext.live.LiveChannel} to its subscribers without blocking a thread on a client that does
 * not read. {@link dev.synccontext.spring.live.LiveSse} (Server-Sent Events on Servlet non-blocking
 * I/O, with {@code Last-Event-ID} resume), {@link dev.synccontext.spring.live.LiveFlux} (the same on WebFlux: a
 * {@code Flux<ServerSentEvent<String>>} written at the response's demand), {@link dev.synccontext.spring.live.LiveWebSocket} (a plain
 * {@code WebSocketSession}, JSR 356 asynchronous sends with a send timeout) and
 * {@link dev.synccontext.spring.live.LiveStomp} (a user's or a session's STOMP destination through
 * {@code SimpMessagingTemplate}); {@link dev.synccontext.spring.live.LiveChannels} builds channels with
 * the {@code synccontext.live.*} settings, the application's executor and per-scope counters. Several channels of
 * different contexts share one SSE stream as {@link dev.synccontext.spring.live.LiveLane}s ({@code SharedStream}:
 * each lane its own subscriber, buffer and resume position).
 *
 * <p>Null-marked (JSpecify): nothing here accepts or returns {@code null} unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.synccontext.spring.live;

import org.jspecify.annotations.NullMarked;
