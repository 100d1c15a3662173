package dev.synccontext.bench;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.scenario.BaselineSyncContext;
import java.util.List;

/** The {@code mode} parameter of every benchmark: which context implementation a scenario runs on. */
final class BenchModes {

    static final String BASELINE = "baseline";
    static final String OPTIMIZED = "optimized";
    static final String SINGLE_THREAD = "single-thread";
    static final String GUAVA_SEQUENTIAL = "guava-sequential";
    static final String LOCK_INLINE = "lock-inline";

    static final List<String> ALL = List.of(BASELINE, OPTIMIZED, SINGLE_THREAD, GUAVA_SEQUENTIAL, LOCK_INLINE);

    private BenchModes() {
    }

    /** A fresh context for {@code mode}; every one drains on the common pool except single-thread. */
    static RendererSyncContext create(String mode) {
        switch (mode) {
            case BASELINE:
                return new BaselineSyncContext();
            case OPTIMIZED:
                return RendererSyncContext.create();
            case SINGLE_THREAD:
                return ExecutorSerialContext.singleThread();
            case GUAVA_SEQUENTIAL:
                return ExecutorSerialContext.guavaSequential();
            case LOCK_INLINE:
                return new LockInlineContext();
            default:
                throw new IllegalArgumentException("Unknown mode '" + mode + "'; valid: " + String.join(", ", ALL));
        }
    }
}
