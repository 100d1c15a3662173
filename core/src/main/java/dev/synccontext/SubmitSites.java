package dev.synccontext;

import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import org.jspecify.annotations.Nullable;

/**
 * The decorator behind {@link RendererSyncContext.Builder#submitSiteSampling}: for about one queued
 * callback in {@code mask + 1}, chosen at random on the submitting thread, it records that thread's
 * stack and the time, and wraps the callback so that, as it starts, its thread's {@link CallbackFrame}
 * knows both (the watchdog's report shows them). The others pass through as the user's decorator (if
 * any) made them. It wraps outside the user's decorator, so what that one captured is in place while
 * the callback runs.
 */
final class SubmitSites implements CallbackDecorator {

    /** Frames recorded per submission: enough to show the caller's caller a few levels up. */
    static final int MAX_FRAMES = 16;

    private static final Set<Class<?>> ENTRY_PATH = Set.of(SubmitSites.class,
            Invocation.class, SyncContext.class, Invocation.RUNNABLE.getClass(), Invocation.STAGE.getClass());

    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

    private final @Nullable CallbackDecorator user;
    private final int mask;

    SubmitSites(@Nullable CallbackDecorator user, int mask) {
        this.user = user;
        this.mask = mask;
    }

    @Override
    public Runnable decorate(Runnable callback) {
        Runnable decorated = user == null ? callback : user.decorate(callback);
        if ((ThreadLocalRandom.current().nextInt() & mask) != 0) {
            return decorated;
        }
        StackTraceElement[] stack = stack();
        int at = SampleClock.now();
        return () -> {
            CallbackFrame.get().noteSubmitted(stack, SampleClock.nanosSince(at));
            decorated.run();
        };
    }

    @Override
    public <T> Callable<T> decorate(Callable<T> callback) {
        Callable<T> decorated = user == null ? callback : user.decorate(callback);
        if ((ThreadLocalRandom.current().nextInt() & mask) != 0) {
            return decorated;
        }
        StackTraceElement[] stack = stack();
        int at = SampleClock.now();
        return () -> {
            CallbackFrame.get().noteSubmitted(stack, SampleClock.nanosSince(at));
            return decorated.call();
        };
    }

    /**
     * The submitting stack from the caller of the context's entry point outwards: the frames of the
     * entry path ({@code SubmitSites}, {@code Invocation}, {@code SyncContext}) are dropped by class
     * identity, which costs nothing next to making the elements (their line numbers are what a
     * recorded submission pays for).
     */
    private static StackTraceElement[] stack() {
        return WALKER.walk(frames -> frames
                .dropWhile(f -> ENTRY_PATH.contains(f.getDeclaringClass()))
                .limit(MAX_FRAMES).map(StackWalker.StackFrame::toStackTraceElement)
                .toArray(StackTraceElement[]::new));
    }
}
