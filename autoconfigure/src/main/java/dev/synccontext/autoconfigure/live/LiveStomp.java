package dev.synccontext.autoconfigure.live;

import dev.synccontext.live.LiveTransport;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.messaging.simp.SimpMessagingTemplate;

/**
 * STOMP destinations as live-channel transports, through the application's {@link SimpMessagingTemplate}.
 * In a {@code @SubscribeMapping} or {@code @MessageMapping} method (a STOMP session's context parameter runs
 * it on that session's context):
 *
 * <pre>{@code
 * @MessageMapping("/board/subscribe")
 * void subscribe(SimpMessageHeaderAccessor headers, RendererSyncContext context) {
 *     context.invokeAsync(() -> board.live().subscribe(
 *             stomp.toSession(headers.getSessionId(), "/queue/board", headers.getFirstNativeHeader("live-last-id"))));
 * }
 * }</pre>
 * The client subscribes to {@code /user/queue/board}. Each message carries the STOMP headers {@code live-id},
 * {@code live-event} and {@code live-snapshot}. See {@link StompTransport} for what bounds a slow STOMP
 * client.
 */
public final class LiveStomp {

    private final SimpMessagingTemplate template;

    public LiveStomp(SimpMessagingTemplate template) {
        this.template = Objects.requireNonNull(template, "template");
    }

    /** To every session of {@code user} (a Principal's name) on its user destination {@code destination}. */
    public LiveTransport toUser(String user, String destination, @Nullable String lastEventId) {
        return new StompTransport(template, user, null, destination, lastEventId);
    }

    /** To one STOMP session only, on its user destination {@code destination} (no Principal needed). */
    public LiveTransport toSession(String sessionId, String destination, @Nullable String lastEventId) {
        return new StompTransport(template, sessionId, sessionId, destination, lastEventId);
    }
}
