package dev.synccontext;

import java.security.AccessControlContext;
import java.security.AccessController;
import java.security.PrivilegedAction;
import java.security.ProtectionDomain;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Makes the library's own threads (the default pool's workers and its monitor, the watchdog, the
 * system clock's timer) so that none keeps anything of the thread that happened to start it: such a
 * thread is started by whichever application thread first needs it, and may outlive that application
 * (a Spring DevTools restart, a redeployed WAR next to a shared library), so whatever it inherits it
 * pins.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>The library's class loader as context class loader.</b> Not the creator's: a thread's
 *       class already holds the library's loader, so this one pins nothing more, and code that asks
 *       the context class loader (service loaders, logging back ends) still finds the library and
 *       what it sees. A drain sets its context's loader while it runs and puts this one back
 *       ({@link Drain#run}).</li>
 *   <li><b>No inherited thread-locals.</b> An application's {@link InheritableThreadLocal} values
 *       (a request, a locale, an MDC) are not copied into a thread that outlives the request.</li>
 *   <li><b>No inherited access-control context.</b> Up to Java 23 a new thread keeps the protection
 *       domains of every frame on its creator's stack, and each holds its class loader: a worker
 *       started from a request thread kept that application's loader reachable for the worker's life
 *       even with its context class loader reset (measured on Java 17: the loader is never collected).
 *       The thread is constructed in a privileged block with an empty context instead. From Java 24
 *       on threads no longer capture one, and the deprecated API is not touched.</li>
 * </ul>
 * All are daemons.
 *
 * <h2>Known limit</h2>
 * When the library is loaded by the application's own loader (a WAR that bundles the jar), its threads
 * are that application's: the watchdog and the pool's monitor never end, so they keep that loader for
 * the life of the JVM whatever their context class loader. Put the jar next to the container's shared
 * libraries, or restart the JVM, when redeploying such a WAR matters.
 */
final class LibraryThreads {

    /** The context class loader of a library thread while it runs no drain: the library's own. */
    static final @Nullable ClassLoader LOADER = LibraryThreads.class.getClassLoader();

    private static final boolean CAPTURES_ACCESS_CONTEXT = Runtime.version().feature() < 24;

    private LibraryThreads() {
    }

    /** A daemon thread, not started, that runs {@code body}. */
    static Thread daemon(String name, Runnable body) {
        return create(() -> new Thread(null, body, name, 0, false));
    }

    /**
     * Constructs a library thread, not started, with {@code constructor}, which must not inherit
     * thread-locals (the {@code inheritThreadLocals = false} constructor of {@link Thread}).
     */
    static <T extends Thread> T create(Supplier<T> constructor) {
        T thread = CAPTURES_ACCESS_CONTEXT ? Privileged.construct(constructor) : constructor.get();
        thread.setDaemon(true);
        thread.setContextClassLoader(LOADER);
        return thread;
    }

    /** Loaded only before Java 24, so a JDK without {@code AccessController} never resolves it. */
    @SuppressWarnings("removal")
    private static final class Privileged {

        /** No protection domain: the new thread's inherited context ends at this class's frames. */
        private static final AccessControlContext EMPTY = new AccessControlContext(new ProtectionDomain[0]);

        static <T> T construct(Supplier<T> constructor) {
            return AccessController.doPrivileged((PrivilegedAction<T>) constructor::get, EMPTY);
        }
    }
}
