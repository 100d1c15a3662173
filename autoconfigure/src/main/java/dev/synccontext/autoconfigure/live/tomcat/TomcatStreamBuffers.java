package dev.synccontext.autoconfigure.live.tomcat;

import org.apache.catalina.connector.Connector;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.coyote.ProtocolHandler;
import org.apache.coyote.http11.AbstractHttp11Protocol;
import org.springframework.boot.tomcat.TomcatWebServerFactory;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;
import org.springframework.util.unit.DataSize;

/**
 * Applies {@link LiveTomcatProperties} to embedded Tomcat: each size that is set replaces Tomcat's, each one unset
 * leaves Tomcat's alone.
 * <ul>
 *   <li>{@code socket-buffer}: the connector's {@code socket.appReadBufSize} and {@code socket.appWriteBufSize};</li>
 *   <li>{@code response-buffer}: the protocol becomes {@link ResponseBufferProtocol} (refused, with the way out, when
 *       the application chose another protocol);</li>
 *   <li>{@code request-buffer}: a {@link RequestBufferValve} on the engine (skipped, with a warning, on a Tomcat
 *       whose request lacks the field it replaces);</li>
 *   <li>{@code max-trailer-size}: the protocol's {@code maxTrailerSize}.</li>
 * </ul>
 * It runs after Boot's own customizer, so a protocol chosen in code is seen.
 */
final class TomcatStreamBuffers implements WebServerFactoryCustomizer<TomcatServletWebServerFactory>, Ordered {

    private static final Log LOG = LogFactory.getLog(TomcatStreamBuffers.class);

    private final LiveTomcatProperties properties;

    TomcatStreamBuffers(LiveTomcatProperties properties) {
        this.properties = properties;
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        DataSize response = properties.getResponseBuffer();
        if (response != null) {
            useResponseBufferProtocol(factory);
            factory.addConnectorCustomizers(connector -> set(connector, "responseBufferSize", response, "response-buffer"));
        }
        DataSize socket = properties.getSocketBuffer();
        if (socket != null) {
            factory.addConnectorCustomizers(connector -> {
                set(connector, "socket.appReadBufSize", socket, "socket-buffer");
                set(connector, "socket.appWriteBufSize", socket, "socket-buffer");
            });
        }
        DataSize trailer = properties.getMaxTrailerSize();
        if (trailer != null) {
            factory.addProtocolHandlerCustomizers((ProtocolHandler handler) -> {
                if (handler instanceof AbstractHttp11Protocol<?> http11) {
                    http11.setMaxTrailerSize((int) trailer.toBytes());
                }
            });
        }
        DataSize request = properties.getRequestBuffer();
        if (request != null) {
            RuntimeException unsupported = RequestBufferValve.unsupported();
            if (unsupported == null) {
                factory.addEngineValves(new RequestBufferValve((int) (request.toBytes() / 2)));
            } else {
                LOG.warn("synccontext.live.tomcat.request-buffer is not applied (requests keep Tomcat's 16KB reader"
                        + " buffer): " + unsupported.getMessage());
            }
        }
    }

    /** The default protocol becomes {@link ResponseBufferProtocol}; another one the application chose is refused. */
    private static void useResponseBufferProtocol(TomcatServletWebServerFactory factory) {
        String protocol = factory.getProtocol();
        if (!protocol.equals(TomcatWebServerFactory.DEFAULT_PROTOCOL)
                && !protocol.equals(ResponseBufferProtocol.class.getName())) {
            throw new IllegalStateException("synccontext.live.tomcat.response-buffer needs Tomcat's protocol to be "
                    + ResponseBufferProtocol.class.getName() + " (Http11NioProtocol, sizing its responses' buffers),"
                    + " but the application chose " + protocol + ": unset synccontext.live.tomcat.response-buffer, or let"
                    + " that protocol's getDesiredBufferSize() return the size, as ResponseBufferProtocol does");
        }
        factory.setProtocol(ResponseBufferProtocol.class.getName());
    }

    private static void set(Connector connector, String name, DataSize size, String property) {
        if (!connector.setProperty(name, Long.toString(size.toBytes()))) {
            throw new IllegalStateException("synccontext.live.tomcat." + property + ": Tomcat's connector ("
                    + connector.getProtocolHandlerClassName() + ") has no property " + name + "; unset the property");
        }
    }
}
