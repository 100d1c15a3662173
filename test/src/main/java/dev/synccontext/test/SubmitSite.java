package dev.synccontext.test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Where something was submitted: the submitting thread's stack, captured at the call (a test-only
 * cost), printed from the first frame outside the library and the kit.
 */
final class SubmitSite {

    private static final int FRAMES_SHOWN = 6;
    /** Kit classes whose frames are plumbing, not the test's code. */
    private static final Set<String> KIT_CLASSES = Set.of(SubmitSite.class.getName(),
            DeterministicExecutor.class.getName(), CallbackTracker.class.getName(),
            SyncContextTestKit.class.getName(), VirtualClock.class.getName(),
            "dev.synccontext.test.spring.KitOutermostDecorator");

    private final String thread;
    private final Throwable stack;

    private SubmitSite(String thread, Throwable stack) {
        this.thread = thread;
        this.stack = stack;
    }

    static SubmitSite here() {
        // The stack is captured now and turned into frames only if a report needs them (the costly part).
        return new SubmitSite(Thread.currentThread().getName(), new Throwable());
    }

    /** The frames that say where: from the first one that is neither the library's nor the kit's. */
    List<StackTraceElement> frames() {
        List<StackTraceElement> shown = new ArrayList<>();
        for (StackTraceElement element : stack.getStackTrace()) {
            if (shown.isEmpty() && isPlumbing(element.getClassName())) {
                continue;
            }
            shown.add(element);
            if (shown.size() == FRAMES_SHOWN) {
                break;
            }
        }
        return shown;
    }

    private static boolean isPlumbing(String className) {
        String outer = className.indexOf('$') > 0 ? className.substring(0, className.indexOf('$')) : className;
        return KIT_CLASSES.contains(outer)
                // the core package itself (not its subpackages' users), and futures completing dependents
                || (outer.startsWith("dev.synccontext.") && outer.indexOf('.', "dev.synccontext.".length()) < 0)
                || outer.startsWith("dev.synccontext.registry.")
                || outer.startsWith("dev.synccontext.autoconfigure.") // the injected proxy, the decorators
                || outer.startsWith("java.util.concurrent.");
    }

    /** The site as lines for a failure message, each indented by {@code indent}. */
    void appendTo(StringBuilder message, String indent) {
        message.append(indent).append("submitted on thread '").append(thread).append("'");
        List<StackTraceElement> frames = frames();
        if (frames.isEmpty()) { // only the library's frames: show them rather than nothing
            frames = List.of(stack.getStackTrace()).subList(0, Math.min(FRAMES_SHOWN * 4, stack.getStackTrace().length));
        }
        for (StackTraceElement element : frames) {
            message.append('\n').append(indent).append("  at ").append(element);
        }
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        appendTo(text, "");
        return text.toString();
    }
}
