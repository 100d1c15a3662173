package dev.synccontext;

import java.util.ArrayList;
import java.util.List;
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
 * the callback runs. The frame lets go of the stack as the callback returns: a backtrace holds the
 * classes of its frames, and a pool thread that kept it while idle would keep the submitting
 * application's class loader.
 */
final class SubmitSites implements CallbackDecorator {

    /** Frames recorded per submission: enough to show the caller's caller a few levels up. */
    static final int MAX_FRAMES = 16;

    /** The classes of the entry path, whose frames a recorded stack starts with. */
    private static final Set<String> ENTRY_PATH = Set.of(SubmitSites.class.getName(), SubmitSite.class.getName(),
            Invocation.class.getName(), SyncContext.class.getName(), Invocation.RUNNABLE.getClass().getName(),
            Invocation.STAGE.getClass().getName());

    private final @Nullable CallbackDecorator user;
    private final int mask;

    SubmitSites(@Nullable CallbackDecorator user, int mask) {
        this.user = user;
        this.mask = mask;
    }

    @Override
    public Runnable decorate(Runnable callback) {
        Runnable decorated = user == null ? callback : user.decorate(callback);
        return sampled() ? new SampledRunnable(decorated, stack(), SampleTime.now()) : decorated;
    }

    @Override
    public <T> Callable<T> decorate(Callable<T> callback) {
        Callable<T> decorated = user == null ? callback : user.decorate(callback);
        return sampled() ? new SampledCallable<>(decorated, stack(), SampleTime.now()) : decorated;
    }

    /** Whether this submission is one of the about one in {@code mask + 1} that are recorded. */
    private boolean sampled() {
        return (ThreadLocalRandom.current().nextInt() & mask) == 0;
    }

    /** As a sampled callback starts: its thread's frame learns where and how long ago it was submitted. */
    private static CallbackFrame noteSubmitted(Throwable stack, int at) {
        CallbackFrame frame = CallbackFrame.get();
        frame.noteSubmitted(stack, SampleTime.nanosSince(at));
        return frame;
    }

    /** A sampled {@code Runnable}: its frame knows the submission while it runs, and forgets it after. */
    private record SampledRunnable(Runnable decorated, Throwable stack, int at) implements Runnable {
        @Override
        public void run() {
            CallbackFrame frame = noteSubmitted(stack, at);
            try {
                decorated.run();
            } finally {
                frame.forgetSubmitted(stack);
            }
        }
    }

    /** A sampled {@code Callable}: its frame knows the submission while it runs, and forgets it after. */
    private record SampledCallable<T>(Callable<T> decorated, Throwable stack, int at) implements Callable<T> {
        @Override
        public T call() throws Exception {
            CallbackFrame frame = noteSubmitted(stack, at);
            try {
                return decorated.call();
            } finally {
                frame.forgetSubmitted(stack);
            }
        }
    }

    /**
     * The submitting stack, captured but not decoded: filling in a throwable's backtrace costs about
     * a microsecond, making stack trace elements (line numbers) several more, so the elements are made
     * only when a report shows them ({@link #frames}).
     */
    private static Throwable stack() {
        return new SubmitSite();
    }

    /** The recorded stack from the caller of the context's entry point outwards, at most {@link #MAX_FRAMES}. */
    static List<StackTraceElement> frames(Throwable site) {
        List<StackTraceElement> frames = new ArrayList<>();
        boolean entry = true;
        for (StackTraceElement frame : site.getStackTrace()) {
            entry = entry && ENTRY_PATH.contains(frame.getClassName());
            if (!entry && frames.size() < MAX_FRAMES) {
                frames.add(frame);
            }
        }
        return frames;
    }

    /** Where a sampled callback was submitted: only its backtrace is ever used. */
    private static final class SubmitSite extends Throwable {
        private static final long serialVersionUID = 1L;

        SubmitSite() {
            super("submitted here", null, false, true);
        }
    }
}
