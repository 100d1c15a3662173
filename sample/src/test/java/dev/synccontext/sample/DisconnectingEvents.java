package dev.synccontext.sample;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.live.LiveChannel;
import dev.synccontext.live.OverflowPolicy;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.spring.live.LiveChannels;
import dev.synccontext.spring.live.LiveSse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * An event stream at {@value #PATH} whose channel disconnects a subscriber that falls behind
 * ({@link OverflowPolicy#DISCONNECT}, a buffer of {@value #BUFFER_CAPACITY} messages): the slow-disconnect meter's
 * real trigger. The sample itself never has one, because its board coalesces (a board is its latest value, so a
 * lagging tab only drops stale boards); an application that must not lose a message would use this policy. The
 * stream is the starter's {@link LiveSse}, as the sample's {@code /api/events} is; the channel belongs to a context
 * of scope {@value LiveChannels#DEFAULT_SCOPE} and counts in that scope. Imported by the tests that need it; a
 * {@code @TestConfiguration}, so the sample's component scan never picks it up.
 */
@TestConfiguration(proxyBeanMethods = false)
class DisconnectingEvents {

    static final String PATH = "/test/disconnecting-events";
    static final int BUFFER_CAPACITY = 8;

    @Bean(destroyMethod = "close")
    Stream disconnectingStream(SyncContextRegistry registry, LiveChannels channels) {
        return new Stream(registry, channels);
    }

    /** The channel and the context that owns it. */
    static final class Stream implements AutoCloseable {

        private final SyncContextRegistry registry;
        private final RendererSyncContext context;
        private final LiveChannel channel;

        private Stream(SyncContextRegistry registry, LiveChannels channels) {
            this.registry = registry;
            this.context = registry.create(LiveChannels.DEFAULT_SCOPE);
            this.channel = channels.builder("disconnecting events", LiveChannels.DEFAULT_SCOPE)
                    .policy(OverflowPolicy.DISCONNECT)
                    .bufferCapacity(BUFFER_CAPACITY)
                    .build(() -> "subscribed");
        }

        RendererSyncContext context() {
            return context;
        }

        LiveChannel channel() {
            return channel;
        }

        @Override
        public void close() {
            channel.close();
            registry.release(context);
        }
    }

    /** {@code GET} {@value #PATH}: the stream, subscribed inside the channel's context. */
    @RestController
    static final class Endpoint {

        private final Stream stream;
        private final LiveSse sse;

        Endpoint(Stream stream, LiveSse sse) {
            this.stream = stream;
            this.sse = sse;
        }

        @GetMapping(path = PATH, produces = MediaType.TEXT_EVENT_STREAM_VALUE)
        void events(HttpServletRequest request, HttpServletResponse response) {
            sse.subscribe(request, response, stream.context(), stream::channel);
        }
    }
}
