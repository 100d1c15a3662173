package dev.synccontext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Bad settings fail at the builder call that gives them, with a message naming the setting. */
class BuilderTest {

    @Test
    void invalidSettingsAreRejectedWhereTheyAreGiven() {
        RendererSyncContext.Builder builder = RendererSyncContext.builder();
        assertThatThrownBy(() -> builder.maxBatch(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxBatch");
        assertThatThrownBy(() -> builder.maxQueueDepth(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxQueueDepth");
        assertThatThrownBy(() -> builder.blockedThreshold(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("blockedThreshold");
        assertThatThrownBy(() -> builder.executor(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> builder.name(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> builder.observer(new SyncContextObserver() {
            @Override
            public int samplingInterval() {
                return 3;
            }
        }).build()).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("power of two");
    }

    @Test
    void contextsGetTheirNameOrAUniqueDefault() {
        assertThat(RendererSyncContext.builder().name("x").build().name()).isEqualTo("x");
        assertThat(RendererSyncContext.create().name()).startsWith("synccontext-")
                .isNotEqualTo(RendererSyncContext.create().name());
        assertThat(RendererSyncContext.builder().name("shown").build().toString()).contains("shown");
    }
}
