package dev.synccontext.bench.capacity;

import dev.synccontext.spring.live.JsonLiveEncoder;
import dev.synccontext.spring.live.LiveEncoder;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * The starter's JSON encoder (it backs off for this bean), noting when a click's update is encoded: in the tab's
 * drain, just before it is written ({@link ServerClickTimes}).
 */
@Component
final class TimedLiveEncoder implements LiveEncoder {

    private final JsonLiveEncoder json;
    private final ServerClickTimes times;

    TimedLiveEncoder(ObjectProvider<JsonMapper> mapper, ServerClickTimes times) {
        this.json = new JsonLiveEncoder(mapper.getIfAvailable(() -> JsonMapper.builder().build()));
        this.times = times;
    }

    @Override
    public String encode(Object data) throws Exception {
        if (data instanceof PadView view && view.nonce() != 0) {
            times.encoded(view.nonce());
        }
        return json.encode(data);
    }
}
