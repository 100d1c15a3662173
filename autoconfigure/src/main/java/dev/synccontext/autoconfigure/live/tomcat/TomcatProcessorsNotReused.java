package dev.synccontext.autoconfigure.live.tomcat;

import org.apache.coyote.AbstractProtocol;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;

/**
 * Tomcat's connection processors are not reused ({@code processorCache} 0), unless the application sets
 * {@code server.tomcat.processor-cache} itself.
 *
 * <p>Why: a live stream is written from the context's executor, not from a container thread. When such a write meets a
 * client that left, Tomcat handles the I/O error on the writing thread, and that handling ends by raising an error on
 * the processor's current connection. Meanwhile a container thread can end the request, recycle the processor and
 * hand it to a new connection, which then receives the error: a new client's request is closed before any answer.
 * Seen under load in the capacity harness's test (an event stream closed with no response while the previous tabs
 * went away: 8 runs of 29 under load; none of 26 with processors not reused). The same window could let a write in
 * progress on the old request reach the buffers of the new one; a processor used once has no next request to reach.
 * The cost: Tomcat allocates a processor (its request, response and buffers) for each request of a kept-alive
 * connection instead of taking one from its cache. An application that serves no live stream over Tomcat may set
 * {@code server.tomcat.processor-cache} back (this customizer then stays out).
 */
final class TomcatProcessorsNotReused implements WebServerFactoryCustomizer<TomcatServletWebServerFactory>, Ordered {

    /** After Boot's own customizer, which sets {@code server.tomcat.processor-cache} (200 when unset). */
    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        // A connector customizer, as Boot's own is: Tomcat's factory applies those after the protocol handler's.
        factory.addConnectorCustomizers(connector -> {
            if (connector.getProtocolHandler() instanceof AbstractProtocol<?> protocol) {
                protocol.setProcessorCache(0);
            }
        });
    }
}
