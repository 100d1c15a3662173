package dev.synccontext.autoconfigure.shutdown;

import dev.synccontext.spring.live.LiveChannels;
import dev.synccontext.autoconfigure.live.LiveProperties;
import dev.synccontext.autoconfigure.live.SyncContextLiveAutoConfiguration;
import dev.synccontext.live.LiveChannelGroup;
import dev.synccontext.registry.ShutdownDrain;
import dev.synccontext.registry.SyncContextRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;

/**
 * The shutdown drain ({@link ShutdownLifecycle}) over the registry and, when live channels are
 * configured, their group; deadline {@code synccontext.shutdown-timeout}, pace
 * {@code synccontext.live.shutdown-pace}. Off with {@code synccontext.drain.enabled=false}.
 */
@AutoConfiguration(after = SyncContextLiveAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "synccontext.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "synccontext.drain.enabled", matchIfMissing = true)
@ConditionalOnBean(SyncContextRegistry.class)
@EnableConfigurationProperties(ShutdownProperties.class)
public final class SyncContextShutdownAutoConfiguration {

    @Bean
    ShutdownLifecycle syncContextShutdownDrain(SyncContextRegistry registry,
            ObjectProvider<LiveChannels> channels, ObjectProvider<LiveProperties> live, ApplicationEventPublisher events,
            ConfigurableListableBeanFactory beanFactory) {
        LiveChannels liveChannels = channels.getIfAvailable();
        LiveChannelGroup group = liveChannels != null ? liveChannels.group() : new LiveChannelGroup();
        LiveProperties liveProperties = live.getIfAvailable(LiveProperties::new);
        ShutdownDrain drain = new ShutdownDrain(registry, group, registry.template().shutdownTimeout(),
                liveProperties.getShutdownPace());
        return new ShutdownLifecycle(drain, events, beanFactory);
    }
}
