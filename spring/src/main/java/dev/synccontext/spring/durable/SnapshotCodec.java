package dev.synccontext.spring.durable;

import dev.synccontext.spring.durable.SnapshotRefusedException.Reason;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns the durable beans of one session into one snapshot (versioned JSON through the application's
 * {@link JsonMapper}) and back, refusing everything it cannot vouch for.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>Data, never code.</b> Stored bytes are parsed as JSON and bound only to the classes registered as
 *       {@link DurableType}s, looked up by the name the snapshot records; no class named by the data is ever
 *       loaded, and nothing is Java-deserialized (no {@code ObjectInputStream} anywhere in this package).</li>
 *   <li><b>All or nothing.</b> A snapshot is a consistent cut of a session's beans (taken when its context's
 *       queue ran dry), so it restores whole or not at all: any refused bean refuses the snapshot, with a
 *       {@link SnapshotRefusedException} whose {@link SnapshotRefusedException#reason reason} says why.</li>
 *   <li><b>Refused, never guessed.</b> Malformed bytes, an envelope of another format, an unknown type, a version
 *       newer than the type's or older without upgrade steps, and a snapshot over {@link #maxBytes()} (checked
 *       before parsing) are refused; older versions are upgraded step by step, then bound.</li>
 *   <li><b>Size checked on both sides.</b> Encoding refuses a snapshot over the budget, so none is ever written
 *       that a node with the same budget would refuse to read.</li>
 *   <li><b>Deterministic.</b> Equal states encode to equal bytes (the mapper's property order), so a writer can
 *       skip a write whose bytes did not change.</li>
 * </ul>
 *
 * <h2>The envelope</h2>
 * <pre>{@code
 * {"format":1,"beans":{"<bean name>":{"type":"<durable type name>","version":2,"state":{...}}, ...}}
 * }</pre>
 * Exactly these fields; the bean name is the caller's key (the scope's bean name). The codec is independent of any
 * {@link StateStore}: stores keep bytes. Thread-safe and immutable.
 */
public final class SnapshotCodec {

    /** The envelope format this version writes and reads. */
    public static final int FORMAT = 1;

    /**
     * The default budget: 64 KiB per session. A guess for a session's UI state (a cart, a wizard's answers, a
     * view's filters), not a measurement: every write carries the whole snapshot, so raise it knowingly.
     */
    public static final int DEFAULT_MAX_BYTES = 64 * 1024;

    private static final Set<String> ENVELOPE_FIELDS = Set.of("format", "beans");
    private static final Set<String> ENTRY_FIELDS = Set.of("type", "version", "state");

    private final JsonMapper mapper;
    /** The mapper's reader, strict where an envelope must be: a repeated field or trailing bytes refuse it. */
    private final ObjectReader envelopeReader;
    private final int maxBytes;
    private final Map<String, DurableType<?>> byName;
    private final Map<Class<?>, DurableType<?>> byClass;

    private SnapshotCodec(JsonMapper mapper, int maxBytes, Map<String, DurableType<?>> byName,
            Map<Class<?>, DurableType<?>> byClass) {
        this.mapper = mapper;
        this.envelopeReader = mapper.reader().with(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        this.maxBytes = maxBytes;
        this.byName = byName;
        this.byClass = byClass;
    }

    /** A codec on the application's mapper (Boot's {@code JsonMapper} bean). */
    public static Builder builder(JsonMapper mapper) {
        return new Builder(mapper);
    }

    /** The largest snapshot, in bytes, this codec writes or reads. */
    public int maxBytes() {
        return maxBytes;
    }

    /**
     * One snapshot of {@code beans} (bean name to instance, each of a registered class), in the map's iteration
     * order.
     *
     * @throws SnapshotRefusedException {@link Reason#UNWRITABLE_STATE} for an unregistered class or a bean the
     *     mapper cannot write; {@link Reason#OVERSIZED} over the budget (naming each bean's share)
     */
    public byte[] encode(Map<String, ?> beans) {
        ObjectNode root = mapper.createObjectNode();
        root.put("format", FORMAT);
        ObjectNode entries = root.putObject("beans");
        for (Map.Entry<String, ?> bean : beans.entrySet()) {
            Object value = bean.getValue();
            DurableType<?> type = byClass.get(value.getClass());
            if (type == null) {
                throw new SnapshotRefusedException(Reason.UNWRITABLE_STATE, "The bean '" + bean.getKey() + "' is a "
                        + value.getClass().getName() + ", which is not a registered durable type; register it with"
                        + " SnapshotCodec.builder(mapper).register(DurableType.of(\"name\", "
                        + value.getClass().getSimpleName() + ".class, 1))");
            }
            ObjectNode entry = entries.putObject(bean.getKey());
            entry.put("type", type.name());
            entry.put("version", type.version());
            try {
                entry.set("state", mapper.valueToTree(value));
            } catch (JacksonException e) {
                throw new SnapshotRefusedException(Reason.UNWRITABLE_STATE, "The bean '" + bean.getKey() + "' ("
                        + type + ") cannot be written as JSON: " + e.getOriginalMessage()
                        + "; fix its Jackson mapping", e);
            }
        }
        byte[] bytes = mapper.writeValueAsBytes(root);
        if (bytes.length > maxBytes) {
            throw new SnapshotRefusedException(Reason.OVERSIZED, "The snapshot of " + beans.size() + " beans is "
                    + bytes.length + " bytes, over the budget of " + maxBytes + " (" + shares(entries)
                    + "); keep less state in durable beans or raise maxBytes");
        }
        return bytes;
    }

    /**
     * Each bean's share of {@code snapshot}, in bytes (its entry, as this codec wrote it), by bean name in the
     * snapshot's order; for monitoring. Parses the JSON only: nothing is bound, no version is checked.
     *
     * @throws SnapshotRefusedException {@link Reason#OVERSIZED} over the budget (not parsed), {@link Reason#MALFORMED}
     *     for bytes that are not a snapshot envelope
     */
    public Map<String, Integer> beanSizes(byte[] snapshot) {
        Map<String, Integer> sizes = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : beansOf(snapshot).properties()) {
            sizes.put(entry.getKey(), sizeOf(entry.getValue()));
        }
        return sizes;
    }

    private String shares(ObjectNode entries) {
        StringBuilder shares = new StringBuilder();
        for (Map.Entry<String, JsonNode> entry : entries.properties()) {
            shares.append(shares.length() == 0 ? "" : ", ").append(entry.getKey()).append(": ")
                    .append(sizeOf(entry.getValue())).append(" bytes");
        }
        return shares.toString();
    }

    /** A bean's entry's size, as this codec writes it. */
    private int sizeOf(JsonNode entry) {
        return mapper.writeValueAsBytes(entry).length;
    }

    /**
     * The {@code beans} object of a snapshot envelope, checked for its budget, its JSON, its exact fields and its
     * format; nothing of the beans is read yet.
     */
    private JsonNode beansOf(byte[] snapshot) {
        if (snapshot.length > maxBytes) {
            throw refused(Reason.OVERSIZED, "is " + snapshot.length + " bytes, over the budget of " + maxBytes
                    + " (not parsed); raise maxBytes if this node should read it");
        }
        JsonNode root;
        try {
            root = envelopeReader.readTree(snapshot);
        } catch (JacksonException e) {
            throw new SnapshotRefusedException(Reason.MALFORMED,
                    "A stored snapshot is not JSON (" + e.getOriginalMessage() + "); refused", e);
        }
        if (root == null || !root.isObject() || !Set.copyOf(root.propertyNames()).equals(ENVELOPE_FIELDS)) {
            throw refused(Reason.MALFORMED, "is not a snapshot envelope (an object with exactly "
                    + ENVELOPE_FIELDS + ")");
        }
        JsonNode format = root.get("format");
        if (!format.isIntegralNumber() || !format.canConvertToInt() || format.intValue() != FORMAT) {
            throw refused(Reason.MALFORMED, "has format " + format + "; this version reads format " + FORMAT);
        }
        JsonNode beans = root.get("beans");
        if (!beans.isObject()) {
            throw refused(Reason.MALFORMED, "has beans that are not an object");
        }
        return beans;
    }

    /**
     * The beans of a snapshot, bean name to a new instance of its registered class, in the snapshot's order.
     *
     * @throws SnapshotRefusedException when any part of the snapshot is refused (nothing is returned then)
     */
    public Map<String, Object> decode(byte[] snapshot) {
        JsonNode beans = beansOf(snapshot);
        Map<String, Object> restored = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> bean : beans.properties()) {
            restored.put(bean.getKey(), decodeBean(bean.getKey(), bean.getValue()));
        }
        return restored;
    }

    private Object decodeBean(String beanName, JsonNode entry) {
        if (!entry.isObject() || !Set.copyOf(entry.propertyNames()).equals(ENTRY_FIELDS)) {
            throw refused(Reason.MALFORMED, "has a bean '" + beanName + "' that is not an object with exactly "
                    + ENTRY_FIELDS);
        }
        JsonNode typeName = entry.get("type");
        JsonNode version = entry.get("version");
        if (!typeName.isString() || !version.isIntegralNumber() || !version.canConvertToInt()
                || version.intValue() < 1) {
            throw refused(Reason.MALFORMED, "has a bean '" + beanName + "' whose type is not a string or whose"
                    + " version is not a positive integer");
        }
        DurableType<?> type = byName.get(typeName.stringValue());
        if (type == null) {
            throw refused(Reason.UNKNOWN_TYPE, "has a bean '" + beanName + "' of type '" + typeName.stringValue()
                    + "', which this node does not register (it registers " + byName.keySet() + ")");
        }
        JsonNode state = upgraded(beanName, type, version.intValue(), entry.get("state"));
        try {
            return mapper.treeToValue(state, type.type());
        } catch (JacksonException e) {
            throw new SnapshotRefusedException(Reason.UNREADABLE_STATE, "A stored snapshot has a bean '" + beanName
                    + "' (" + type + ") whose state does not bind: " + e.getOriginalMessage()
                    + "; if its JSON form changed, bump the version and add an upgrade step", e);
        }
    }

    private JsonNode upgraded(String beanName, DurableType<?> type, int storedVersion, JsonNode state) {
        if (storedVersion > type.version()) {
            throw refused(Reason.NEWER_VERSION, "has a bean '" + beanName + "' at version " + storedVersion
                    + " of type '" + type.name() + "', newer than this node's version " + type.version()
                    + ": written by a newer deployment");
        }
        JsonNode current = state;
        for (int from = storedVersion; from < type.version(); from++) {
            UnaryOperator<JsonNode> step = type.upgradeFrom(from);
            if (step == null) {
                throw refused(Reason.UNKNOWN_VERSION, "has a bean '" + beanName + "' at version " + storedVersion
                        + " of " + type + ", and there is no upgrade step from version " + from
                        + "; add .upgrade(" + from + ", state -> ...) to the type");
            }
            JsonNode next;
            try {
                next = step.apply(current);
            } catch (RuntimeException e) {
                throw new SnapshotRefusedException(Reason.MIGRATION_FAILED, "The upgrade step of " + type
                        + " from version " + from + " failed on bean '" + beanName + "': " + e, e);
            }
            if (next == null) {
                throw refused(Reason.MIGRATION_FAILED, "met an upgrade step of " + type + " from version " + from
                        + " that returned null for bean '" + beanName + "'");
            }
            current = next;
        }
        return current;
    }

    private static SnapshotRefusedException refused(Reason reason, String what) {
        return new SnapshotRefusedException(reason, "A stored snapshot " + what + "; refused");
    }

    /** Registers the durable types and the budget; {@link #build()} checks that names and classes are unique. */
    public static final class Builder {

        private final JsonMapper mapper;
        private int maxBytes = DEFAULT_MAX_BYTES;
        private final Map<String, DurableType<?>> byName = new HashMap<>();
        private final Map<Class<?>, DurableType<?>> byClass = new HashMap<>();

        private Builder(JsonMapper mapper) {
            this.mapper = mapper;
        }

        /** The largest snapshot in bytes, written or read; {@link #DEFAULT_MAX_BYTES} unless set. */
        public Builder maxBytes(int maxBytes) {
            if (maxBytes < 64) {
                throw new IllegalArgumentException("maxBytes must be at least 64 (an empty envelope), was "
                        + maxBytes);
            }
            this.maxBytes = maxBytes;
            return this;
        }

        /** Adds a durable type; each name and each class once. */
        public Builder register(DurableType<?> type) {
            DurableType<?> sameName = byName.putIfAbsent(type.name(), type);
            if (sameName != null) {
                throw new IllegalArgumentException("Two durable types are named '" + type.name() + "': " + sameName
                        + " and " + type + "; give each its own name");
            }
            DurableType<?> sameClass = byClass.putIfAbsent(type.type(), type);
            if (sameClass != null) {
                byName.remove(type.name());
                throw new IllegalArgumentException("The class " + type.type().getName() + " is registered twice: "
                        + sameClass + " and " + type + "; register each class once");
            }
            return this;
        }

        public SnapshotCodec build() {
            return new SnapshotCodec(mapper, maxBytes, Map.copyOf(byName), Map.copyOf(byClass));
        }
    }
}
