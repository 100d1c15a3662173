package dev.synccontext.autoconfigure.live;

import dev.synccontext.spring.live.JsonLiveEncoder;
import dev.synccontext.spring.live.LaneLimit;
import dev.synccontext.spring.live.LaneLimitMetrics;
import dev.synccontext.spring.live.LiveChannels;
import dev.synccontext.spring.live.LiveChannelsMetrics;
import dev.synccontext.spring.live.LiveEncoder;
import dev.synccontext.spring.live.LiveFlux;
import dev.synccontext.spring.live.LiveSse;
import dev.synccontext.spring.live.LiveStomp;
import dev.synccontext.spring.live.LiveWebSocket;
import dev.synccontext.spring.live.StompSessionEvents;
import dev.synccontext.spring.live.TooManyLanesWebExceptionHandler;

import dev.synccontext.autoconfigure.SyncContextAutoConfiguration;
import dev.synccontext.registry.SyncContextRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.SmartApplicationListener;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.simp.SimpMessagingTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * Live channels: {@link LiveChannels} always, and one transport bean per web technology present:
 * {@link LiveSse} (servlet web application), {@link LiveFlux} (reactive web application), {@link LiveWebSocket} (Spring WebSocket over JSR 356),
 * {@link LiveStomp} (a {@code SimpMessagingTemplate} bean); the {@link LaneLimit} the event streams share; the
 * meters when Micrometer is present.
 */
@AutoConfiguration(after = SyncContextAutoConfiguration.class,
        afterName = {"org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration",
                "org.springframework.boot.websocket.autoconfigure.servlet.WebSocketMessagingAutoConfiguration"})
@ConditionalOnBooleanProperty(name = "synccontext.enabled", matchIfMissing = true)
@ConditionalOnBean(SyncContextRegistry.class)
@EnableConfigurationProperties(LiveProperties.class)
public final class SyncContextLiveAutoConfiguration {

    /** Spring's STOMP outbound channel (where a session's going-away ERROR frame goes). */
    static final String CLIENT_OUTBOUND_CHANNEL = "clientOutboundChannel";

    @Bean
    @ConditionalOnMissingBean
    LiveChannels liveChannels(LiveProperties properties, SyncContextRegistry registry) {
        return new LiveChannels(registry.template().executor(), builder -> builder.policy(properties.getPolicy())
                .bufferCapacity(properties.getBufferCapacity()).replayCapacity(properties.getReplayCapacity())
                .inlineWrites(properties.isInlineWrites()));
    }

    @Bean
    @ConditionalOnMissingBean
    LaneLimit liveLaneLimit(LiveProperties properties) {
        return new LaneLimit(properties.getMaxLanesPerStream());
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(JsonMapper.class)
    static class Json {

        @Bean
        @ConditionalOnMissingBean(LiveEncoder.class)
        LiveEncoder liveEncoder(ObjectProvider<JsonMapper> json) {
            return new JsonLiveEncoder(json.getIfAvailable(() -> JsonMapper.builder().build()));
        }
    }

    private static LiveEncoder encoder(ObjectProvider<LiveEncoder> encoder) {
        return encoder.getIfAvailable(() -> {
            throw new IllegalStateException("Live channels need a LiveEncoder bean to write messages: add Jackson 3"
                    + " (tools.jackson.core:jackson-databind, which Spring Boot's web starters bring) or declare a"
                    + " bean of type dev.synccontext.spring.live.LiveEncoder.");
        });
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    @ConditionalOnClass(name = "jakarta.servlet.WriteListener")
    static class Sse {

        @Bean
        @ConditionalOnMissingBean
        LiveSse liveSse(ObjectProvider<LiveEncoder> encoder, LiveProperties properties, LaneLimit laneLimit) {
            return new LiveSse(encoder(encoder), properties.getSseTimeout(), laneLimit);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
    @ConditionalOnClass(name = {"org.springframework.http.codec.ServerSentEvent", "reactor.core.publisher.Flux"})
    static class FluxSse {

        @Bean
        @ConditionalOnMissingBean
        LiveFlux liveFlux(ObjectProvider<LiveEncoder> encoder, LiveProperties properties, LaneLimit laneLimit) {
            return new LiveFlux(encoder(encoder), properties.getSseTimeout(), laneLimit);
        }

        @Bean
        @ConditionalOnMissingBean
        TooManyLanesWebExceptionHandler liveTooManyLanesWebExceptionHandler() {
            return new TooManyLanesWebExceptionHandler();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"jakarta.websocket.Session", "org.springframework.web.socket.WebSocketSession"})
    static class WebSocket {

        @Bean
        @ConditionalOnMissingBean
        LiveWebSocket liveWebSocket(ObjectProvider<LiveEncoder> encoder, LiveProperties properties) {
            return new LiveWebSocket(encoder(encoder), properties.getSendTimeout());
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(SimpMessagingTemplate.class)
    static class Stomp {

        @Bean
        @ConditionalOnMissingBean
        @ConditionalOnBean(SimpMessagingTemplate.class)
        LiveStomp liveStomp(SimpMessagingTemplate template,
                @Qualifier(CLIENT_OUTBOUND_CHANNEL) ObjectProvider<MessageChannel> clientOutbound) {
            return new LiveStomp(template, clientOutbound.getIfAvailable());
        }

        @Bean
        @ConditionalOnClass(name = "org.springframework.web.socket.messaging.SessionDisconnectEvent")
        @ConditionalOnBean(LiveStomp.class)
        SmartApplicationListener liveStompSessionEvents(LiveStomp stomp) {
            return new StompSessionEvents(stomp);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MeterBinder.class)
    @ConditionalOnBooleanProperty(name = "synccontext.metrics.enabled", matchIfMissing = true)
    static class Metrics {

        @Bean
        MeterBinder syncContextLiveMetrics(LiveChannels channels) {
            return new LiveChannelsMetrics(channels);
        }

        @Bean
        MeterBinder syncContextLaneLimitMetrics(LaneLimit laneLimit) {
            return new LaneLimitMetrics(laneLimit);
        }
    }
}
