package dev.synccontext.spring.live;

import tools.jackson.databind.json.JsonMapper;

/** The default {@link LiveEncoder}: the application's {@code JsonMapper}; a {@code String} is written as JSON too. */
public final class JsonLiveEncoder implements LiveEncoder {

    private final JsonMapper json;

    public JsonLiveEncoder(JsonMapper json) {
        this.json = json;
    }

    @Override
    public String encode(Object data) {
        return json.writeValueAsString(data);
    }
}
