package dev.synccontext.starter;

import dev.synccontext.registry.SyncContextRegistry;
import java.lang.ref.WeakReference;
import java.lang.reflect.Field;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The child JVM of {@link RestartLeavesNoLoaderBehindTest}: starts {@code com.example.restart}'s
 * application twice, each time from a child-first class loader of its own over the test classes (so the
 * first application's loader is a real, distinct loader) and with that loader as the context class
 * loader, as a DevTools restart does; closes each, then reports what still holds the first one. Lines:
 * {@code RAN <n> <keyed contexts>}, {@code THREAD_WITH_FIRST_LOADER <name>},
 * {@code FIRST_LOADER_COLLECTED <gc calls>} or {@code FIRST_LOADER_REACHABLE}, {@code EXIT}.
 *
 * <p>What Spring Boot itself keeps of an application is kept out, so that what is left is the
 * library's: its two shutdown hooks are off (each an unstarted thread made with the first
 * application's loader as its context class loader, held by the JVM), and its binder's shared converter
 * is dropped after each run ({@link #forgetSpringsSharedConverter}). Found with a heap dump of this
 * probe, as the paths from the roots to the first loader.
 */
public final class RestartProbe {

    static final String APPLICATION = "com.example.restart.RestartedApplication";
    private static final int MAX_GCS = 50;
    private static final AtomicInteger RUNS = new AtomicInteger();

    private RestartProbe() {
    }

    public static void main(String[] args) throws Exception {
        WeakReference<ClassLoader> first = runOnce();
        runOnce(); // the restart: the library's threads go on serving the second application
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (first.get() != null && t.getContextClassLoader() == first.get()) {
                System.out.println("THREAD_WITH_FIRST_LOADER " + t.getName());
            }
        }
        int gcs = 0;
        while (first.get() != null && gcs < MAX_GCS) {
            System.gc();
            gcs++;
        }
        System.out.println(first.get() == null ? "FIRST_LOADER_COLLECTED " + gcs : "FIRST_LOADER_REACHABLE");
        System.out.println("EXIT");
    }

    /** One start and close of the application in a loader of its own; returns that loader, weakly. */
    private static WeakReference<ClassLoader> runOnce() throws Exception {
        int run = RUNS.incrementAndGet();
        URL testClasses = RestartProbe.class.getProtectionDomain().getCodeSource().getLocation();
        ApplicationLoader loader = new ApplicationLoader("application-" + run, testClasses,
                RestartProbe.class.getClassLoader());
        Thread self = Thread.currentThread();
        ClassLoader before = self.getContextClassLoader();
        self.setContextClassLoader(loader);
        try {
            Class<?> application = loader.loadClass(APPLICATION);
            if (application.getClassLoader() != loader) {
                throw new IllegalStateException("the application was not loaded by its own loader");
            }
            try (ConfigurableApplicationContext context = new SpringApplication(application).run(
                    "--spring.main.web-application-type=none", "--spring.main.register-shutdown-hook=false",
                    "--spring.main.banner-mode=off", "--management.metrics.use-global-registry=false",
                    "--logging.level.root=warn", "--logging.register-shutdown-hook=false")) {
                System.out.println("RAN " + run + " " + context.getBean(SyncContextRegistry.class).contexts().size());
            }
        } finally {
            self.setContextClassLoader(before);
        }
        forgetSpringsSharedConverter();
        loader.close();
        return new WeakReference<>(loader);
    }

    /**
     * Spring Boot's own hold on the application: the binder's shared converter keeps a property editor
     * with the context class loader it was made under (the first application's). A DevTools restart
     * clears Spring's caches likewise; the library has nothing to do with this one.
     */
    private static void forgetSpringsSharedConverter() throws ReflectiveOperationException {
        Field shared = Class.forName("org.springframework.boot.context.properties.bind.BindConverter")
                .getDeclaredField("sharedInstance");
        shared.setAccessible(true);
        shared.set(null, null);
    }

    /** Loads the application's package itself, everything else from its parent, as a restart loader does. */
    private static final class ApplicationLoader extends URLClassLoader {

        ApplicationLoader(String name, URL classes, ClassLoader parent) {
            super(name, new URL[] {classes}, parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith("com.example.restart.")) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    c = findClass(name);
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }
    }
}
