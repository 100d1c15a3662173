package dev.synccontext.spring.durable.redis;

import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.serializer.RedisSerializer;

/**
 * Script arguments as Redis reads them: bytes as they are (a snapshot), everything else as its decimal or text
 * form in UTF-8 (tokens, epochs, milliseconds, ids), which is how the scripts compare them with stored values.
 */
final class ScriptArguments implements RedisSerializer<Object> {

    static final ScriptArguments INSTANCE = new ScriptArguments();

    private ScriptArguments() {
    }

    @Override
    public byte[] serialize(@Nullable Object value) {
        if (value instanceof byte[] bytes) {
            return bytes;
        }
        if (value == null) {
            throw new IllegalArgumentException("A synccontext script argument is null");
        }
        return value.toString().getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public @Nullable Object deserialize(byte @Nullable [] bytes) {
        return bytes;
    }
}
