package dev.synccontext.test.cluster;

import dev.synccontext.RendererSyncContext;
import java.util.Objects;

/**
 * What a request's callback gets on the node that serves it: the session's durable beans on that node, resolved as
 * the context scope resolves a {@code @Durable @ContextScoped} bean (created and restored on first use in the
 * session's context, then the same instance; every call marks it used, which arms the checkpoint, queued
 * {@code debounce} later).
 * Valid only inside the callback it was given to, on the session's context.
 */
public final class SessionCall {

    private final ClusterNode.Instance node;
    private final RendererSyncContext context;
    private final String session;

    SessionCall(ClusterNode.Instance node, RendererSyncContext context, String session) {
        this.node = node;
        this.context = context;
        this.session = session;
    }

    /**
     * The session's bean of {@code type} (registered with {@link InMemoryCluster.Builder#durable}) on this node.
     * Throws {@code SessionUnavailableException} when the node cannot own the session now (what the starter answers
     * 503 with {@code Retry-After}).
     */
    public <T> T bean(Class<T> type) {
        Objects.requireNonNull(type, "type");
        context.assertAccess();
        return type.cast(node.bean(context, type));
    }

    /** The session id the request carried. */
    public String session() {
        return session;
    }

    /** The name of the node serving the request. */
    public String node() {
        return node.owner().name();
    }

    /** The id of the node instance serving it (the name and its start count, as in the store). */
    public String nodeId() {
        return node.id();
    }
}
