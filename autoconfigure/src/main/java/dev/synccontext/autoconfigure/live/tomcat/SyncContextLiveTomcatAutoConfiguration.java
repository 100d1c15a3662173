package dev.synccontext.autoconfigure.live.tomcat;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.NoneNestedConditions;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.ConfigurationCondition;

/**
 * Embedded Tomcat for live streams: its connection processors not reused ({@link TomcatProcessorsNotReused}, unless the
 * application sets {@code server.tomcat.processor-cache}), and its per-connection buffers sized
 * ({@link LiveTomcatProperties}) when the application sets any of {@code synccontext.live.tomcat.*}: opt-in, since the
 * sizes trade a little throughput of large bodies for heap per open stream.
 */
@AutoConfiguration
@ConditionalOnBooleanProperty(name = "synccontext.enabled", matchIfMissing = true)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(name = {"org.apache.catalina.startup.Tomcat",
        "org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory"})
@EnableConfigurationProperties(LiveTomcatProperties.class)
public final class SyncContextLiveTomcatAutoConfiguration {

    @Bean
    @Conditional(ProcessorCacheUnset.class)
    TomcatProcessorsNotReused syncContextTomcatProcessorsNotReused() {
        return new TomcatProcessorsNotReused();
    }

    @Bean
    @Conditional(AnySizeSet.class)
    TomcatStreamBuffers syncContextTomcatStreamBuffers(LiveTomcatProperties properties) {
        return new TomcatStreamBuffers(properties);
    }

    /** The application left {@code server.tomcat.processor-cache} to its default. */
    static final class ProcessorCacheUnset extends NoneNestedConditions {

        ProcessorCacheUnset() {
            super(ConfigurationCondition.ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnProperty("server.tomcat.processor-cache")
        static final class Set {
        }
    }

    /** Any one of the sizes set. */
    static final class AnySizeSet extends AnyNestedCondition {

        AnySizeSet() {
            super(ConfigurationCondition.ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnProperty("synccontext.live.tomcat.socket-buffer")
        static final class SocketBuffer {
        }

        @ConditionalOnProperty("synccontext.live.tomcat.response-buffer")
        static final class ResponseBuffer {
        }

        @ConditionalOnProperty("synccontext.live.tomcat.request-buffer")
        static final class RequestBuffer {
        }

        @ConditionalOnProperty("synccontext.live.tomcat.max-trailer-size")
        static final class MaxTrailerSize {
        }
    }
}
