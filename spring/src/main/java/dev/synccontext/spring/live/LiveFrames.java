package dev.synccontext.spring.live;

import dev.synccontext.live.LiveMessage;

/** The JSON envelope of a message on a WebSocket: {@code {"id":"…","event":"…","snapshot":…,"data":…}}. */
final class LiveFrames {

    /** The event (SSE) or STOMP header value a subscriber's last frame carries when its server shuts down. */
    static final String GOING_AWAY_EVENT = "going-away";

    private LiveFrames() {
    }

    /** {@code data} is already encoded JSON; id and event are escaped here. */
    static String json(LiveMessage message, String data) {
        StringBuilder frame = new StringBuilder(data.length() + 64).append("{\"id\":");
        quote(frame, message.id()).append(",\"event\":");
        quote(frame, message.event()).append(",\"snapshot\":").append(message.snapshot()).append(",\"data\":");
        return frame.append(data).append('}').toString();
    }

    private static StringBuilder quote(StringBuilder out, String text) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"');
    }
}
