package dev.synccontext.spring.live;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.live.LiveChannel;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * One live channel on an event stream that carries several ({@link LiveSse#subscribe(
 * jakarta.servlet.http.HttpServletRequest, jakarta.servlet.http.HttpServletResponse, java.util.List)},
 * {@link LiveFlux#subscribe(org.springframework.web.server.ServerWebExchange, java.util.List)}): the name the tab knows it by, the context that
 * owns the channel, and what gives the channel inside that context (a session's private channel, a room's).
 *
 * <p>The name is the SSE {@code event} field of every event of the lane and its key in the stream's event ids
 * ({@code me=<epoch>-12;room:42=<epoch>-40}), so it must be non-blank and hold no {@code ;}, {@code =}, white space
 * or control character.
 *
 * @param name the lane's name on the stream ({@code me}, {@code room:42})
 * @param context the context that owns the channel; the subscription runs inside it
 * @param channel gives the channel, called inside {@code context}
 */
public record LiveLane(String name, RendererSyncContext context, Supplier<LiveChannel> channel) {

    public LiveLane {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(channel, "channel");
        LaneIds.checkName(name);
    }

    /** The lane {@code name}: the channel {@code channel} gives inside {@code context}. */
    public static LiveLane of(String name, RendererSyncContext context, Supplier<LiveChannel> channel) {
        return new LiveLane(name, context, channel);
    }
}
