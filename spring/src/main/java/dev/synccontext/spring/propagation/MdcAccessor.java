package dev.synccontext.spring.propagation;

import ch.qos.logback.classic.util.LogbackMDCAdapter;
import io.micrometer.context.ThreadLocalAccessor;
import io.micrometer.context.integration.Slf4jThreadLocalAccessor;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.MDC;
import org.slf4j.spi.MDCAdapter;
import org.springframework.util.ClassUtils;

/**
 * The whole SLF4J MDC as one thread-local, under {@link Slf4jThreadLocalAccessor#KEY}. Unlike
 * {@link Slf4jThreadLocalAccessor}, reading it allocates nothing: an empty MDC reads as "no value" (what
 * Logback leaves behind after {@code MDC.remove} of the last key), and with Logback the value read is
 * Logback's own read-only copy, which Logback keeps until the MDC next changes, instead of a fresh copy
 * per read. Setting it copies (what {@link MDC#setContextMap} does), so only a callback queued with a
 * non-empty MDC pays for one.
 */
final class MdcAccessor implements ThreadLocalAccessor<Object> {

    private static final boolean LOGBACK = ClassUtils.isPresent("ch.qos.logback.classic.util.LogbackMDCAdapter",
            MdcAccessor.class.getClassLoader());

    @Override
    public Object key() {
        return Slf4jThreadLocalAccessor.KEY;
    }

    @Override
    public @Nullable Object getValue() {
        Map<String, String> map = LOGBACK ? Logback.readOnly() : MDC.getCopyOfContextMap();
        return map == null || map.isEmpty() ? null : map;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void setValue(Object value) {
        MDC.setContextMap((Map<String, String>) value);
    }

    @Override
    public void setValue() {
        MDC.clear();
    }

    /** Loaded only when Logback is on the class path. */
    private static final class Logback {

        static @Nullable Map<String, String> readOnly() {
            MDCAdapter adapter = MDC.getMDCAdapter();
            return adapter instanceof LogbackMDCAdapter logback ? logback.getPropertyMap() : MDC.getCopyOfContextMap();
        }
    }
}
