package dev.synccontext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URL;
import java.net.URLClassLoader;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The library's threads inherit nothing from the application thread that happens to make them, and an
 * idle one holds no application's class loader: the default pool's workers and monitor (a pool of
 * their own here, so that this test makes them), and any thread made through {@link LibraryThreads}
 * (the watchdog, the system clock's timer).
 */
class LibraryThreadsTest {

    private static final ClassLoader LIBRARY = RendererSyncContext.class.getClassLoader();

    @Test
    void poolThreadsMadeForASubmitterWithItsOwnLoaderHoldTheLibrarysLoaderWhileIdle() throws Exception {
        try (URLClassLoader app = new URLClassLoader("app", new URL[0], LIBRARY);
                URLClassLoader setByCallback = new URLClassLoader("set-by-callback", new URL[0], LIBRARY)) {
            ElasticExecutor pool = new ElasticExecutor("tccl-test-", 1, 4, TimeUnit.SECONDS.toNanos(60),
                    ElasticExecutor.DEFAULT_TICK_NANOS, ElasticExecutor.DEFAULT_SPIN_NANOS);
            InheritableThreadLocal<String> request = new InheritableThreadLocal<>();
            AtomicReference<ClassLoader> seen = new AtomicReference<>();
            AtomicReference<String> inherited = new AtomicReference<>("not run");
            CountDownLatch ran = new CountDownLatch(2);
            Thread submitter = new Thread(() -> {
                request.set("a request of the application");
                RendererSyncContext ctx = RendererSyncContext.builder().name("tccl").executor(pool).build();
                ctx.post(() -> {
                    seen.set(Thread.currentThread().getContextClassLoader());
                    inherited.set(request.get());
                    ran.countDown();
                });
                // A callback that sets a loader of its own must not leave it on the pool's thread either.
                ctx.post(() -> {
                    Thread.currentThread().setContextClassLoader(setByCallback);
                    ran.countDown();
                });
            }, "submitter");
            submitter.setContextClassLoader(app);
            submitter.start();
            submitter.join();
            assertThat(ran.await(10, TimeUnit.SECONDS)).as("both posts ran").isTrue();

            assertThat(seen.get()).as("a queued callback's context class loader: its builder's creator's")
                    .isSameAs(app);
            assertThat(inherited.get()).as("the submitter's inheritable thread-local, seen on the pool thread")
                    .isNull();
            await().atMost(Duration.ofSeconds(10)).until(() -> pool.awakeCount() == 0); // every worker parked
            List<Thread> made = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().startsWith("tccl-test-")).toList();
            assertThat(made).as("the pool's threads (a worker and the monitor)").hasSizeGreaterThanOrEqualTo(2);
            for (Thread t : made) {
                assertThat(t.getContextClassLoader()).as("context class loader of idle %s", t.getName())
                        .isSameAs(LIBRARY);
                assertThat(t.isDaemon()).as("%s is a daemon", t.getName()).isTrue();
            }
        }
    }

    @Test
    void aLibraryDaemonInheritsNeitherTheLoaderNorTheThreadLocalsOfItsCreator() throws Exception {
        try (URLClassLoader app = new URLClassLoader("app", new URL[0], LIBRARY)) {
            InheritableThreadLocal<String> request = new InheritableThreadLocal<>();
            AtomicReference<Thread> made = new AtomicReference<>();
            Map<String, Object> seen = new java.util.concurrent.ConcurrentHashMap<>();
            CountDownLatch ran = new CountDownLatch(1);
            Thread creator = new Thread(() -> {
                request.set("a request of the application");
                made.set(LibraryThreads.daemon("library-daemon", () -> {
                    seen.put("loader", String.valueOf(Thread.currentThread().getContextClassLoader()));
                    seen.put("inherited", String.valueOf(request.get()));
                    ran.countDown();
                }));
            }, "creator");
            creator.setContextClassLoader(app);
            creator.start();
            creator.join();
            Thread daemon = made.get();
            assertThat(daemon.isDaemon()).isTrue();
            daemon.start();
            assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
            daemon.join();
            assertThat(seen).containsEntry("loader", String.valueOf(LIBRARY)).containsEntry("inherited", "null");
        }
    }
}
