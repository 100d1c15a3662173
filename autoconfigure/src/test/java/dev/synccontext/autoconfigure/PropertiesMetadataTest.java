package dev.synccontext.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.SyncContextDefaults;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.convert.DurationStyle;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The defaults an IDE shows for {@code synccontext.*} come from the generated configuration metadata. The
 * properties' fields refer to {@link SyncContextDefaults}, which the configuration processor cannot
 * evaluate, so the defaults are restated in {@code additional-spring-configuration-metadata.json}: this
 * test keeps that file equal to the constants and to what a fresh {@link SyncContextProperties} holds.
 */
class PropertiesMetadataTest {

    @Test
    void theMetadataDefaultsAreTheCoreDefaults() throws IOException {
        Map<String, JsonNode> defaults = new HashMap<>();
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).as("generated metadata on the class path").isNotNull();
            for (JsonNode property : JsonMapper.builder().build().readTree(in).get("properties")) {
                if (property.has("defaultValue")) {
                    defaults.put(property.get("name").asString(), property.get("defaultValue"));
                }
            }
        }
        SyncContextProperties fresh = new SyncContextProperties();
        assertThat(defaults.get("synccontext.max-batch").asInt())
                .isEqualTo(SyncContextDefaults.MAX_BATCH).isEqualTo(fresh.getMaxBatch());
        assertThat(defaults.get("synccontext.max-queue-depth").asInt())
                .isEqualTo(SyncContextDefaults.MAX_QUEUE_DEPTH).isEqualTo(fresh.getMaxQueueDepth());
        assertThat(duration(defaults.get("synccontext.blocked-threshold")))
                .isEqualTo(SyncContextDefaults.BLOCKED_THRESHOLD).isEqualTo(fresh.getBlockedThreshold());
        assertThat(duration(defaults.get("synccontext.shutdown-timeout")))
                .isEqualTo(SyncContextDefaults.SHUTDOWN_TIMEOUT).isEqualTo(fresh.getShutdownTimeout());
        assertThat(defaults.get("synccontext.metrics.sampling-interval").asInt())
                .isEqualTo(SyncContextDefaults.SAMPLING_INTERVAL).isEqualTo(fresh.getMetrics().getSamplingInterval());
    }

    private static Duration duration(JsonNode value) {
        return DurationStyle.detectAndParse(value.asString());
    }
}
