package dev.synccontext.bench.capacity;

import org.apache.coyote.http11.Http11NioProtocol;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.stereotype.Component;

/**
 * Tomcat's per-connection buffers, sized for connections that hold a long-lived stream of small messages
 * (bench/README.md, "Capacity per node"): Tomcat keeps them for as long as a stream is open, so they, not the
 * application, are most of a live session's heap. No Boot property sets them:
 * <ul>
 *   <li>{@code capacity.tomcat.socket-buffer} (Tomcat's {@code socket.appReadBufSize} and
 *       {@code socket.appWriteBufSize}, 8 KB each by default): the connection's read and write buffers;</li>
 *   <li>{@code capacity.tomcat.response-buffer} (8 KB by default): the response's output buffer, and the
 *       character buffer of its writer beside it (as many {@code char}s, so twice the bytes). A message larger
 *       than it is written in several pieces, never refused.</li>
 * </ul>
 * Unset (or 0), Tomcat's defaults stay.
 */
@Component
final class StreamBuffers implements WebServerFactoryCustomizer<TomcatServletWebServerFactory> {

    private final int socketBuffer;
    private final int responseBuffer;

    StreamBuffers(@Value("${capacity.tomcat.socket-buffer:0}") int socketBuffer,
            @Value("${capacity.tomcat.response-buffer:0}") int responseBuffer) {
        this.socketBuffer = socketBuffer;
        this.responseBuffer = responseBuffer;
    }

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        if (responseBuffer > 0) {
            SmallResponseBufferProtocol.size = responseBuffer;
            factory.setProtocol(SmallResponseBufferProtocol.class.getName());
        }
        if (socketBuffer > 0) {
            factory.addConnectorCustomizers(connector -> {
                connector.setProperty("socket.appReadBufSize", Integer.toString(socketBuffer));
                connector.setProperty("socket.appWriteBufSize", Integer.toString(socketBuffer));
            });
        }
    }

    /**
     * Tomcat's NIO HTTP/1.1 protocol, asking its connector for responses with a smaller output buffer
     * ({@code Connector.createResponse} sizes it by {@link #getDesiredBufferSize()}; HTTP/1.1 asks for
     * nothing, which means 8 KB). Tomcat makes the protocol from its class name, hence the static size.
     */
    public static final class SmallResponseBufferProtocol extends Http11NioProtocol {

        static volatile int size = 8192;

        @Override
        public int getDesiredBufferSize() {
            return size;
        }
    }
}
