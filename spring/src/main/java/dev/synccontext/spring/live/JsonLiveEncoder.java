package dev.synccontext.spring.live;

import tools.jackson.databind.json.JsonMapper;

/**
 * The default {@link LiveEncoder}: the application's {@code JsonMapper}; a {@code String} is written as JSON too.
 *
 * @param json the mapper that writes every message
 */
public record JsonLiveEncoder(JsonMapper json) implements LiveEncoder {

    @Override
    public String encode(Object data) {
        return json.writeValueAsString(data);
    }
}
