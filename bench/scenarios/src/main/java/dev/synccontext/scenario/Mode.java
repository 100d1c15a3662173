package dev.synccontext.scenario;

import java.util.Arrays;
import java.util.stream.Collectors;

/** Which context a scenario runs against: the design Blazor's 2023 rework replaced, or the real one. */
public enum Mode {

    /** {@link BaselineSyncContext}: lock-guarded tail future, one executor hop per queued item. */
    BASELINE("baseline"),

    /** The real {@code RendererSyncContext}, built like the application's bean. */
    OPTIMIZED("optimized");

    private final String id;

    Mode(String id) {
        this.id = id;
    }

    /** The lower-case id used in tables, JMH parameters and the actuator endpoint. */
    public String id() {
        return id;
    }

    /**
     * The mode with this id.
     *
     * @throws IllegalArgumentException naming the valid ids if there is none
     */
    public static Mode fromId(String id) {
        for (Mode mode : values()) {
            if (mode.id.equals(id)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("Unknown mode '" + id + "'; valid modes are: "
                + Arrays.stream(values()).map(Mode::id).collect(Collectors.joining(", ")));
    }
}
