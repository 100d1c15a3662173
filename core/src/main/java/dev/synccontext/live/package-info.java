/**
 * Live channels: how state on a context pushes to its subscribers without ever blocking that context on the
 * network. A {@link dev.synccontext.live.LiveChannel} belongs to one context (usually one session's); each of
 * its {@link dev.synccontext.live.LiveSubscriber subscribers} (one open tab) has a bounded outbound buffer
 * that is drained off the context, on an executor, by at most one task at a time, through a
 * {@link dev.synccontext.live.LiveTransport} that never blocks on the network (SSE, WebSocket and STOMP
 * transports live in the Spring module). What overflows a buffer is handled by the channel's
 * {@link dev.synccontext.live.OverflowPolicy} and counted in {@link dev.synccontext.live.LiveStatistics}.
 * Event ids carry the channel's epoch and a sequence number, so a reconnect resumes from a bounded replay
 * buffer or gets a snapshot: no duplicate, no silent gap.
 *
 * <p>JDK only, like the rest of the core. Null-marked (JSpecify): nothing here accepts or returns
 * {@code null} unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.synccontext.live;

import org.jspecify.annotations.NullMarked;
