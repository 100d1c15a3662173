package dev.synccontext.spring.durable.redis;

import dev.synccontext.spring.durable.HandOffMessage;
import dev.synccontext.spring.durable.StateStore;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * A hand-off message on the wire: {@code "<KIND> <from node> <handle>"} in ASCII (ids have no spaces). Read as
 * data only: anything else on the channel decodes to null and is ignored.
 */
final class HandOffFrames {

    private HandOffFrames() {
    }

    static byte[] encode(HandOffMessage message) {
        return (message.kind().name() + ' ' + message.fromNode() + ' ' + message.handle())
                .getBytes(StandardCharsets.US_ASCII);
    }

    static @Nullable HandOffMessage decode(byte[] frame) {
        if (frame.length > 16 + 2 * (1 + StateStore.MAX_NAME_LENGTH)) {
            return null;
        }
        String[] parts = new String(frame, StandardCharsets.US_ASCII).split(" ", -1);
        if (parts.length != 3) {
            return null;
        }
        try {
            return new HandOffMessage(HandOffMessage.Kind.valueOf(parts[0]), parts[2], parts[1]);
        } catch (IllegalArgumentException notAMessage) {
            return null;
        }
    }
}
