package dev.synccontext.autoconfigure;

import dev.synccontext.SyncContextDefaults;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;
import dev.synccontext.spring.websocket.WebSocketSessionContext;

/**
 * Configuration properties for {@code RendererSyncContext} beans, their registry, metrics and the
 * {@code synccontext} actuator endpoint.
 *
 * <p>It validates itself (it is a Spring {@link Validator}), so an invalid value fails startup with a
 * message that names the property, without needing a Bean Validation provider.
 */
@ConfigurationProperties("synccontext")
public class SyncContextProperties implements Validator {

    /** Whether to auto-configure RendererSyncContext beans, their registry and metrics. */
    private boolean enabled = true;

    /** Lifecycle of the injected RendererSyncContext: one per HTTP session, per request, or per WebSocket session (needs STOMP messaging). */
    private Scope scope = Scope.SESSION;

    /** Where queued callbacks are drained. When not set: virtual-threads if spring.threads.virtual.enabled is on (Java 21+), otherwise elastic. */
    private @Nullable ExecutorKind executor;

    /** Maximum number of callbacks one drain runs before it yields its pool thread to other work. */
    private int maxBatch = SyncContextDefaults.MAX_BATCH;

    /** Maximum number of callbacks waiting in one context; 0 means unbounded. */
    private int maxQueueDepth = SyncContextDefaults.MAX_QUEUE_DEPTH;

    /** How long a callback may run before it is reported as blocked; 0 turns the report off. */
    private Duration blockedThreshold = SyncContextDefaults.BLOCKED_THRESHOLD;

    /** How long queued work of a closing context (end of its session or request, or application shutdown) may take to finish before it is cancelled; at shutdown, also the bound of the whole drain (synccontext.drain). */
    private Duration shutdownTimeout = SyncContextDefaults.SHUTDOWN_TIMEOUT;

    private final Metrics metrics = new Metrics();

    private final Benchmark benchmark = new Benchmark();

    private final Session session = new Session();

    private final Mvc mvc = new Mvc();

    private final ContextScope contextScope = new ContextScope();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public Scope getScope() {
        return scope;
    }

    public void setScope(Scope scope) {
        this.scope = scope;
    }

    public @Nullable ExecutorKind getExecutor() {
        return executor;
    }

    public void setExecutor(@Nullable ExecutorKind executor) {
        this.executor = executor;
    }

    public int getMaxBatch() {
        return maxBatch;
    }

    public void setMaxBatch(int maxBatch) {
        this.maxBatch = maxBatch;
    }

    public int getMaxQueueDepth() {
        return maxQueueDepth;
    }

    public void setMaxQueueDepth(int maxQueueDepth) {
        this.maxQueueDepth = maxQueueDepth;
    }

    public Duration getBlockedThreshold() {
        return blockedThreshold;
    }

    public void setBlockedThreshold(Duration blockedThreshold) {
        this.blockedThreshold = blockedThreshold;
    }

    public Duration getShutdownTimeout() {
        return shutdownTimeout;
    }

    public void setShutdownTimeout(Duration shutdownTimeout) {
        this.shutdownTimeout = shutdownTimeout;
    }

    public Metrics getMetrics() {
        return metrics;
    }

    public Benchmark getBenchmark() {
        return benchmark;
    }

    public Session getSession() {
        return session;
    }

    public Mvc getMvc() {
        return mvc;
    }

    @Override
    public boolean supports(Class<?> type) {
        return SyncContextProperties.class.isAssignableFrom(type) || Benchmark.class.isAssignableFrom(type)
                || Metrics.class.isAssignableFrom(type) || Session.class.isAssignableFrom(type);
    }

    @Override
    public void validate(Object target, Errors errors) {
        if (target instanceof Benchmark b) {
            // Validated as its own bound object, so errors name synccontext.benchmark.* properties.
            if (b.maxIterations < 1) {
                errors.rejectValue("maxIterations", "range", "must be at least 1");
            }
            if (b.maxDuration == null || b.maxDuration.isNegative() || b.maxDuration.isZero()) {
                errors.rejectValue("maxDuration", "range", "must be positive");
            }
            return;
        }
        if (target instanceof Metrics m) {
            if (m.samplingInterval < 0 || Integer.bitCount(m.samplingInterval) > 1) {
                errors.rejectValue("samplingInterval", "range", "must be 0 (off) or a power of two, such as 64, 128 or 256");
            }
            return;
        }
        if (target instanceof Session session) {
            if (session.idleTimeout != null && (session.idleTimeout.isNegative() || session.idleTimeout.isZero())) {
                errors.rejectValue("idleTimeout", "range", "must be positive (leave it unset for the session timeout plus a margin)");
            }
            if (session.nodeId != null && (session.nodeId.isBlank() || session.nodeId.indexOf('@') >= 0)) {
                errors.rejectValue("nodeId", "format", "must be non-blank and contain no '@'");
            }
            return;
        }
        SyncContextProperties p = (SyncContextProperties) target;
        if (p.scope == null) {
            errors.rejectValue("scope", "required", "must be one of session, request, websocket");
        }
        if (p.maxBatch < 1) {
            errors.rejectValue("maxBatch", "range", "must be at least 1");
        }
        if (p.maxQueueDepth < 0 || p.maxQueueDepth > MAX_QUEUE_DEPTH) {
            errors.rejectValue("maxQueueDepth", "range", "must be 0 (unbounded) or between 1 and " + MAX_QUEUE_DEPTH);
        }
        if (p.blockedThreshold == null || p.blockedThreshold.isNegative()) {
            errors.rejectValue("blockedThreshold", "range", "must be 0 (off) or positive");
        }
        if (p.shutdownTimeout == null || p.shutdownTimeout.isNegative()) {
            errors.rejectValue("shutdownTimeout", "range", "must be 0 or positive");
        }
    }

    /** The core's limit: the context keeps its count in 28 bits. */
    static final int MAX_QUEUE_DEPTH = (1 << 28) - 2;

    /** Lifecycle of the injected {@code RendererSyncContext}. */
    public enum Scope {
        /** One context per HTTP session (servlet web applications). */
        SESSION,
        /** One context per HTTP request (servlet web applications). */
        REQUEST,
        /**
         * One context per STOMP WebSocket session; needs @EnableWebSocketMessageBroker. Deprecated: WebSocket
         * session contexts are available next to the HTTP ones (a RendererSyncContext parameter of
         * {@code @MessageMapping} methods, or {@code @WebSocketSessionContext RendererSyncContext}).
         */
        WEBSOCKET;

        /** The value of the metrics {@code scope} tag. */
        public String tag() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** Where queued callbacks are drained. */
    public enum ExecutorKind {
        /**
         * The core's default (RendererSyncContext.defaultExecutor()): a pool sized to the CPUs that adds
         * threads when callbacks block, so one blocked session never delays another.
         */
        ELASTIC,
        /** ForkJoinPool.commonPool(): for CPU-only callbacks; a blocked callback holds one of its few workers. */
        COMMON_POOL,
        /** A new virtual thread per drain (Spring's VirtualThreadTaskExecutor); needs Java 21 or later. */
        VIRTUAL_THREADS,
        /** The application's "applicationTaskExecutor" bean (Spring Boot's task execution auto-configuration). */
        APPLICATION_TASK_EXECUTOR;

        /** The property value, as a user writes it. */
        public String id() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }
    }

    /** Micrometer metrics of the contexts. */
    public static class Metrics {

        /** Whether to export context metrics (synccontext.*) to Micrometer. */
        private boolean enabled = true;

        /** About one callback in this many is timed and allocation-probed (a power of two; 0 turns timers and allocation metrics off). Counts are always exact. */
        private int samplingInterval = SyncContextDefaults.SAMPLING_INTERVAL;

        public int getSamplingInterval() {
            return samplingInterval;
        }

        public void setSamplingInterval(int samplingInterval) {
            this.samplingInterval = samplingInterval;
        }

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }
    }

    /** Spring MVC. */
    public static class Mvc {

        /** Whether a controller's CompletableFuture that is already complete when the method returns is written at once instead of through Servlet async processing. */
        private boolean writeCompletedFutures = true;

        /** Whether @OnContext handler methods run on their context through the starter's RequestMappingHandlerAdapter (a WebMvcRegistrations bean, left out when the application declares its own). When off, or when another adapter is used, an application with @OnContext handler methods fails to start. */
        private boolean onContext = true;

        public boolean isOnContext() {
            return onContext;
        }

        public void setOnContext(boolean onContext) {
            this.onContext = onContext;
        }

        public boolean isWriteCompletedFutures() {
            return writeCompletedFutures;
        }

        public void setWriteCompletedFutures(boolean writeCompletedFutures) {
            this.writeCompletedFutures = writeCompletedFutures;
        }
    }

    /** Limits of the scenario runs started with POST /actuator/synccontext. */
    public static class Benchmark {

        /** Maximum number of measured iterations (and of warm-up iterations) one POST may ask for. */
        private int maxIterations = 50;

        /** Maximum wall-clock time of one POST run; the run stops early and says so when it is reached. */
        private Duration maxDuration = Duration.ofSeconds(30);

        public int getMaxIterations() {
            return maxIterations;
        }

        public void setMaxIterations(int maxIterations) {
            this.maxIterations = maxIterations;
        }

        public Duration getMaxDuration() {
            return maxDuration;
        }

        public void setMaxDuration(Duration maxDuration) {
            this.maxDuration = maxDuration;
        }
    }

    public ContextScope getContextScope() {
        return contextScope;
    }

    /** Context-scoped beans ({@code @ContextScoped}): one instance per context. */
    public static class ContextScope {

        /**
         * Whether a context-scoped bean resolves only inside a callback of a context. When false, a request
         * thread outside any callback gets its session's (or request's, or STOMP session's) instance, for
         * example to hand it to invokeAsync.
         */
        private boolean strict = false;

        public boolean isStrict() {
            return strict;
        }

        public void setStrict(boolean strict) {
            this.strict = strict;
        }
    }

    /** HTTP-session (and WebFlux WebSession) contexts, and running on several nodes. */
    public static class Session {

        /** Name of this node in session handles, logs and the endpoint; unset means the host name plus a random suffix, new at each start. */
        private @Nullable String nodeId;

        /** How long a session's context may go without a request on this node before it is released; unset means the session timeout plus a tenth (at least 10 s more). */
        private @Nullable Duration idleTimeout;

        public @Nullable String getNodeId() {
            return nodeId;
        }

        public void setNodeId(@Nullable String nodeId) {
            this.nodeId = nodeId;
        }

        public @Nullable Duration getIdleTimeout() {
            return idleTimeout;
        }

        public void setIdleTimeout(@Nullable Duration idleTimeout) {
            this.idleTimeout = idleTimeout;
        }
    }
}
