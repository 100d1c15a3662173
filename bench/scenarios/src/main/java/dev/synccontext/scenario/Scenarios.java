package dev.synccontext.scenario;

import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The built-in scenarios. Every call returns fresh instances (a scenario instance runs one invocation
 * at a time and keeps preallocated per-invocation state).
 */
public final class Scenarios {

    private static final List<String> SEED = List.of(InvokeAsyncReady.NAME, InvokeAsyncBusy.NAME,
            PostSerial.NAME, PostConcurrent.NAME);
    private static final List<String> ALL = List.of(InvokeAsyncReady.NAME, InvokeAsyncBusy.NAME,
            PostSerial.NAME, PostConcurrent.NAME, ManyContexts.NAME, Contended.NAME);

    private Scenarios() {
    }

    /** The four reference scenarios, in docs/DESIGN.md's order: InvokeAsyncReady, InvokeAsyncBusy, PostSerial, PostConcurrent. */
    public static List<Scenario> seed() {
        return SEED.stream().map(Scenarios::byName).collect(Collectors.toUnmodifiableList());
    }

    /** The four reference scenarios, then {@code ManyContexts} and {@code Contended}. */
    public static List<Scenario> all() {
        return ALL.stream().map(Scenarios::byName).collect(Collectors.toUnmodifiableList());
    }

    /** The names of {@link #all()}, in order. */
    public static List<String> names() {
        return ALL;
    }

    /**
     * A fresh instance of the scenario with this exact name.
     *
     * @throws IllegalArgumentException listing the valid names if there is none
     */
    public static Scenario byName(String name) {
        Function<Duration, Scenario> factory = factory(name);
        if (factory == null) {
            throw new IllegalArgumentException("Unknown scenario '" + name + "'; valid scenarios are: "
                    + String.join(", ", ALL));
        }
        return factory.apply(LoopScenario.DEFAULT_PATIENCE);
    }

    /** The scenario's constructor, given how long it waits for work a context should long have run. */
    private static @Nullable Function<Duration, Scenario> factory(@Nullable String name) {
        if (name == null) {
            return null;
        }
        switch (name) {
            case InvokeAsyncReady.NAME:
                return InvokeAsyncReady::new;
            case InvokeAsyncBusy.NAME:
                return InvokeAsyncBusy::new;
            case PostSerial.NAME:
                return PostSerial::new;
            case PostConcurrent.NAME:
                return PostConcurrent::new;
            case ManyContexts.NAME:
                return patience -> new ManyContexts(ManyContexts.CONTEXTS, patience);
            case Contended.NAME:
                return Contended::new;
            default:
                return null;
        }
    }
}
