package dev.synccontext;

import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;

/**
 * A context that was closed because its application is shutting down ({@link RendererSyncContext#closeForShutdown()},
 * which the registry's shutdown drain calls) refused a callback. A {@link RejectedExecutionException}, so code
 * that catches a closed context's refusal keeps working; the message names the context and says that the
 * application is shutting down, so the caller knows to send the work to another instance rather than retry
 * here. A context closed by a plain {@link RendererSyncContext#close()} refuses with a plain
 * {@code RejectedExecutionException} ("is closed"), as before.
 *
 * <p>The registry's own refusal to create a context during shutdown is
 * {@code dev.synccontext.registry.ShuttingDownException} (an {@code IllegalStateException}, as a closed
 * registry's refusal always was).
 */
public class ContextShuttingDownException extends RejectedExecutionException {

    private static final long serialVersionUID = 1L;

    private final String contextName;

    public ContextShuttingDownException(String contextName) {
        super("Context '" + Objects.requireNonNull(contextName, "contextName") + "' is closed because the application"
                + " is shutting down and accepts no new callbacks; the request should go to another instance");
        this.contextName = contextName;
    }

    /** The name of the context that refused. */
    public String contextName() {
        return contextName;
    }
}
