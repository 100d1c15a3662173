package dev.synccontext.spring.durable;

import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A bean type whose state a {@link SnapshotCodec} may store and restore: a stable name (what snapshots record,
 * never a Java class name), the Java class the state binds to, the current version of its JSON form, and one
 * upgrade step for each older version still to be read.
 *
 * <p>Bump the version whenever the JSON form changes in a way the class can no longer bind (a renamed or
 * retyped field), and add the step from the old version: {@code upgrade(1, state -> ...)} turns a version-1
 * state into a version-2 one. A snapshot whose version has no path of steps to the current one is refused, not
 * guessed at. Immutable: {@link #upgrade} returns a new type.
 *
 * @param <T> the bean's class
 */
public final class DurableType<T> {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");

    private final String name;
    private final Class<T> type;
    private final int version;
    private final Map<Integer, UnaryOperator<JsonNode>> upgrades;

    private DurableType(String name, Class<T> type, int version, Map<Integer, UnaryOperator<JsonNode>> upgrades) {
        this.name = name;
        this.type = type;
        this.version = version;
        this.upgrades = upgrades;
    }

    /**
     * A durable type at {@code version}, with no upgrade steps yet.
     *
     * @param name    the name snapshots record: letters, digits, {@code . _ -}, at most 100 characters; keep it
     *                when the class is renamed or moved
     * @param type    the class the state binds to with the application's mapper
     * @param version the version of the JSON form written now, from 1
     */
    public static <T> DurableType<T> of(String name, Class<T> type, int version) {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("The durable type name '" + name + "' (for " + type.getName()
                    + ") must be 1 to 100 letters, digits, '.', '_' or '-', starting with a letter or digit;"
                    + " choose a stable name such as \"cart\" (it is stored in every snapshot)");
        }
        if (version < 1) {
            throw new IllegalArgumentException(
                    "The durable type '" + name + "' has version " + version + "; versions start at 1");
        }
        return new DurableType<>(name, type, version, Map.of());
    }

    /**
     * This type with a step that turns a version-{@code fromVersion} state into a version-{@code fromVersion + 1}
     * one. The step receives the parsed JSON of the stored state (its own copy: it may modify and return it) and
     * returns the upgraded JSON; it runs on the restoring node before the state is bound to the class.
     */
    public DurableType<T> upgrade(int fromVersion, UnaryOperator<JsonNode> step) {
        if (fromVersion < 1 || fromVersion >= version) {
            throw new IllegalArgumentException("The durable type '" + name + "' is at version " + version
                    + "; an upgrade step starts from a version 1 to " + (version - 1) + ", not " + fromVersion);
        }
        if (upgrades.containsKey(fromVersion)) {
            throw new IllegalArgumentException("The durable type '" + name + "' already has an upgrade step from"
                    + " version " + fromVersion + "; give each version one step");
        }
        Map<Integer, UnaryOperator<JsonNode>> more = new TreeMap<>(upgrades);
        more.put(fromVersion, step);
        return new DurableType<>(name, type, version, Map.copyOf(more));
    }

    /** The name snapshots record. */
    public String name() {
        return name;
    }

    /** The class the state binds to. */
    public Class<T> type() {
        return type;
    }

    /** The version written now. */
    public int version() {
        return version;
    }

    /** The step from {@code fromVersion}, or null when there is none. */
    @Nullable UnaryOperator<JsonNode> upgradeFrom(int fromVersion) {
        return upgrades.get(fromVersion);
    }

    @Override
    public String toString() {
        return "DurableType[" + name + " v" + version + " -> " + type.getName() + "]";
    }
}
