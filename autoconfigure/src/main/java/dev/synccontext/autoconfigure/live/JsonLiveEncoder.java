package dev.synccontext.autoconfigure.live;

import tools.jackson.databind.json.JsonMapper;

/** The default {@link LiveEncoder}: the application's {@code JsonMapper}; a {@code String} is written as JSON too. */
final class JsonLiveEncoder implements LiveEncoder {

    private final JsonMapper json;

    JsonLiveEncoder(JsonMapper json) {
        this.json = json;
    }

    @Override
    public String encode(Object data) {
        return json.writeValueAsString(data);
    }
}
