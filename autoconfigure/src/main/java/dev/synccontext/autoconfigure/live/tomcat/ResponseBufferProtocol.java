package dev.synccontext.autoconfigure.live.tomcat;

import org.apache.coyote.http11.Http11NioProtocol;

/**
 * Tomcat's NIO HTTP/1.1 protocol, asking its connector for responses with an output buffer of
 * {@link #setResponseBufferSize responseBufferSize} bytes instead of 8 KB.
 *
 * <p>{@code Connector.createResponse} sizes a response's output buffer, and the character buffer of its writer beside
 * it, by the protocol's {@link #getDesiredBufferSize()}; HTTP/1.1 asks for nothing, which means 8 KB. No setting
 * reaches it, hence this subclass. A connector keeps one response per connection, for as long as the connection
 * lives, so a live stream holds it while it is open. A body larger than the buffer goes out in several pieces, never
 * refused, and a servlet can still ask for more with {@code setBufferSize}.
 *
 * <p>Tomcat makes the protocol from its class name ({@code TomcatServletWebServerFactory.setProtocol}); the size
 * arrives as a connector property ({@code Connector.setProperty("responseBufferSize", ...)}), as Tomcat's own
 * protocol settings do.
 */
public class ResponseBufferProtocol extends Http11NioProtocol {

    private volatile int responseBufferSize = -1;

    /** The size of a response's output buffer, in bytes; -1 (the default) = Tomcat's 8 KB. */
    public void setResponseBufferSize(int responseBufferSize) {
        this.responseBufferSize = responseBufferSize;
    }

    public int getResponseBufferSize() {
        return responseBufferSize;
    }

    @Override
    public int getDesiredBufferSize() {
        return responseBufferSize;
    }
}
