package dev.synccontext;

import java.security.CodeSource;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Finds the application's line in a stack: the innermost frame that is neither the JDK's nor this
 * library's (classes loaded from the same place as this one). Used on rare paths only (a report, a
 * deadlock), and the answer per class name is remembered.
 */
final class CallSites {

    private static final @Nullable CodeSource LIBRARY = SyncContext.class.getProtectionDomain().getCodeSource();
    /**
     * Per package prefix of the library's other jars, one class of that jar, to tell the jar from its own
     * tests (whose classes share the package but not the jar): the Spring library's decorators (the
     * propagation and observation decorators wrap every queued callback), its auto-configuration's handler
     * adapters, and synccontext-reactor's scheduler.
     */
    private static final List<Map.Entry<String, String>> SIBLING_JARS = List.of(
            Map.entry("dev.synccontext.spring.", "dev.synccontext.spring.CompositeCallbackDecorator"),
            Map.entry("dev.synccontext.autoconfigure.", "dev.synccontext.autoconfigure.SyncContextAutoConfiguration"),
            Map.entry("dev.synccontext.reactor.", "dev.synccontext.reactor.ContextScheduler"),
            Map.entry("dev.synccontext.kotlin.", "dev.synccontext.kotlin.ContextDispatcher"));
    private static final ConcurrentHashMap<String, Boolean> LIBRARY_CLASSES = new ConcurrentHashMap<>();
    /** Classes that call a callback: the frame just inside the innermost of these is the callback's. */
    private static final List<String> RUNNERS = List.of(Invocation.class.getName(), QueuedCall.class.getName(),
            QueuedStage.class.getName(), QueuedPost.class.getName(), CallbackRunner.class.getName());

    private CallSites() {
    }

    /**
     * The frame that called into the wait a stack shows: the innermost frame outside the JDK, Reactor and
     * this library, searched from the innermost frame of Reactor or this library outward; or null.
     *
     * <p>Why not simply the innermost application-looking frame: the stack of another thread is a
     * snapshot, and a waiter caught between recording its wait and parking may be deep inside whatever
     * its blocking call runs first (a class initialiser, a logger and what that logger calls). Those
     * frames lie inward of the wait's own frames, so the search starts where the wait does. A stack
     * without such a frame is searched from its innermost frame.
     */
    static @Nullable StackTraceElement userFrame(List<StackTraceElement> stack) {
        int from = 0;
        for (int i = 0; i < stack.size(); i++) {
            if (isLibraryOrReactor(stack.get(i).getClassName())) {
                from = i;
                break;
            }
        }
        for (int i = from; i < stack.size(); i++) {
            if (!isInfrastructure(stack.get(i).getClassName())) {
                return stack.get(i);
            }
        }
        return null;
    }

    /**
     * The frame of the running callback itself in a stack of a thread inside a context: the first
     * frame outside the JDK and this library on the way in from the innermost frame of this library
     * that calls callbacks (so a decorator, a lambda's synthetic frame, or a {@code CompletableFuture}
     * task the context runs are skipped). Null if the stack holds no such frame. For a lambda this is
     * its body's method ({@code Foo.lambda$bar$0}) with the line it runs now.
     */
    static @Nullable StackTraceElement callbackFrame(List<StackTraceElement> stack) {
        int runner = -1;
        for (int i = 0; i < stack.size(); i++) {
            if (RUNNERS.contains(stack.get(i).getClassName())) {
                runner = i;
                break;
            }
        }
        if (runner <= 0) {
            return null;
        }
        for (int i = runner - 1; i >= 0; i--) {
            if (!isInfrastructure(stack.get(i).getClassName())) {
                return stack.get(i);
            }
        }
        return stack.get(runner - 1);
    }

    /**
     * Whether the callback that runs innermost in {@code stack} runs on its caller's thread (inline,
     * nested or a {@code send}) rather than in a drain: then it never waited in a queue.
     */
    static boolean ranOnCaller(List<StackTraceElement> stack) {
        String context = SyncContext.class.getName();
        for (StackTraceElement frame : stack) {
            if (frame.getClassName().equals(Drain.class.getName())) {
                return false;
            }
            if (frame.getClassName().equals(context) && (frame.getMethodName().equals("invokeInline")
                    || frame.getMethodName().equals("runSendAsOwner") || frame.getMethodName().equals("submit")
                    || frame.getMethodName().equals("send"))) {
                return true;
            }
        }
        return false;
    }

    private static boolean isInfrastructure(String className) {
        if (className.startsWith("java.") || className.startsWith("jdk.") || className.startsWith("sun.")
                || className.contains("$$Lambda")) {
            // A lambda's own frame (where the JVM shows it) only forwards to its body's method.
            return true;
        }
        return isLibraryOrReactor(className);
    }

    private static boolean isLibraryOrReactor(String className) {
        if (className.startsWith("reactor.core.") || className.startsWith("reactor.util.")) {
            // Reactor's operators, block() and its own helpers (its loggers): the line that blocks, or the
            // callback, is the application's frame that called into them.
            return true;
        }
        if (!className.startsWith("dev.synccontext.")) {
            return false;
        }
        return LIBRARY_CLASSES.computeIfAbsent(className, CallSites::loadedWithLibrary);
    }

    private static boolean loadedWithLibrary(String className) {
        try {
            Class<?> type = Class.forName(className, false, SyncContext.class.getClassLoader());
            CodeSource source = type.getProtectionDomain().getCodeSource();
            if (Objects.equals(source, LIBRARY)) {
                return true;
            }
            for (Map.Entry<String, String> sibling : SIBLING_JARS) {
                if (className.startsWith(sibling.getKey())) {
                    return Objects.equals(source, Class.forName(sibling.getValue(), false, type.getClassLoader())
                            .getProtectionDomain().getCodeSource());
                }
            }
            return false;
        } catch (ClassNotFoundException | LinkageError | SecurityException notOurs) {
            return false;
        }
    }
}
