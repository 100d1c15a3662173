package dev.synccontext.autoconfigure.live.tomcat;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * Sizes of the buffers embedded Tomcat keeps per connection for as long as a live stream is open
 * ({@code synccontext.live.tomcat.*}; autoconfigure/docs/live-channels.md, "Heap per live session"). Unset, Tomcat's
 * own size stays. Set any of them and {@link SyncContextLiveTomcatAutoConfiguration} applies them.
 */
@ConfigurationProperties("synccontext.live.tomcat")
public class LiveTomcatProperties {

    /** Size of a connection's socket read buffer and of its socket write buffer (Tomcat: 8KB each). */
    private @Nullable DataSize socketBuffer;

    /** Size of a response's output buffer; its writer's character buffer beside it takes twice as many bytes (Tomcat: 8KB). */
    private @Nullable DataSize responseBuffer;

    /** Heap size of a request reader's character buffer, at 2 bytes a character (Tomcat: 16KB, 8,192 characters). */
    private @Nullable DataSize requestBuffer;

    /** Maximum size of a chunked request body's trailer headers, reserved per connection (Tomcat: 8KB). */
    private @Nullable DataSize maxTrailerSize;

    public @Nullable DataSize getSocketBuffer() {
        return socketBuffer;
    }

    public void setSocketBuffer(@Nullable DataSize socketBuffer) {
        this.socketBuffer = atLeast("socket-buffer", socketBuffer, 512);
    }

    public @Nullable DataSize getResponseBuffer() {
        return responseBuffer;
    }

    public void setResponseBuffer(@Nullable DataSize responseBuffer) {
        this.responseBuffer = atLeast("response-buffer", responseBuffer, 256);
    }

    public @Nullable DataSize getRequestBuffer() {
        return requestBuffer;
    }

    public void setRequestBuffer(@Nullable DataSize requestBuffer) {
        this.requestBuffer = atLeast("request-buffer", requestBuffer, 256);
    }

    public @Nullable DataSize getMaxTrailerSize() {
        return maxTrailerSize;
    }

    public void setMaxTrailerSize(@Nullable DataSize maxTrailerSize) {
        this.maxTrailerSize = atLeast("max-trailer-size", maxTrailerSize, 64);
    }

    /**
     * Refuses a size below the floor: smaller buffers save next to nothing and cost a system call or a
     * conversion round per few bytes; a trailer limit below it refuses every trailer a client might send.
     */
    private static @Nullable DataSize atLeast(String property, @Nullable DataSize size, int floorBytes) {
        if (size != null && size.toBytes() < floorBytes) {
            throw new IllegalArgumentException("synccontext.live.tomcat." + property + " must be at least " + floorBytes
                    + "B, not " + size + "; unset it to keep Tomcat's size");
        }
        if (size != null && size.toBytes() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("synccontext.live.tomcat." + property + " must be below 2GB, not " + size);
        }
        return size;
    }
}
