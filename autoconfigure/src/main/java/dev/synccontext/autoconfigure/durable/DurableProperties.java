package dev.synccontext.autoconfigure.durable;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/** Settings of the state that survives a deploy: sessions' {@code @Durable} context-scoped beans. */
@ConfigurationProperties("synccontext.durable")
public class DurableProperties {

    /** Whether sessions' @Durable context-scoped beans are kept in a state store (when the application has any). */
    private boolean enabled = true;

    /** Prefix of every key and channel the Redis state store uses. */
    private String keyPrefix = "synccontext:";

    /** How long this node's lease in the state store lives without a renewal; renewed every third of it. */
    private Duration nodeLeaseTtl = Duration.ofSeconds(15);

    /** How long a request waits for another node to hand its session over before it is answered 503 with Retry-After. */
    private Duration handOffTimeout = Duration.ofSeconds(5);

    /** How long a snapshot waits before it is written, so that a burst of changes costs one write. */
    private Duration debounce = Duration.ofMillis(200);

    /** Largest snapshot of one session's durable beans, written or read. */
    private DataSize sizeBudget = DataSize.ofKilobytes(64);

    /**
     * Whether an @OnContext answer (Spring MVC, WebFlux, Kotlin suspend, a STOMP reply) waits until the store
     * accepted the snapshot of its changes (one store round trip per changing answer; a refused or failed write
     * answers 503, a STOMP frame ERROR).
     */
    private boolean writeThrough = false;

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getKeyPrefix() {
        return keyPrefix;
    }

    public void setKeyPrefix(String keyPrefix) {
        this.keyPrefix = keyPrefix;
    }

    public Duration getNodeLeaseTtl() {
        return nodeLeaseTtl;
    }

    public void setNodeLeaseTtl(Duration nodeLeaseTtl) {
        this.nodeLeaseTtl = nodeLeaseTtl;
    }

    public Duration getHandOffTimeout() {
        return handOffTimeout;
    }

    public void setHandOffTimeout(Duration handOffTimeout) {
        this.handOffTimeout = handOffTimeout;
    }

    public Duration getDebounce() {
        return debounce;
    }

    public void setDebounce(Duration debounce) {
        this.debounce = debounce;
    }

    public DataSize getSizeBudget() {
        return sizeBudget;
    }

    public void setSizeBudget(DataSize sizeBudget) {
        this.sizeBudget = sizeBudget;
    }

    public boolean isWriteThrough() {
        return writeThrough;
    }

    public void setWriteThrough(boolean writeThrough) {
        this.writeThrough = writeThrough;
    }
}
