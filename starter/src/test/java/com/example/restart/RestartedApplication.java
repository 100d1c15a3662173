package com.example.restart;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.registry.SyncContextRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * The application that {@code dev.synccontext.starter.RestartProbe} starts twice, each time from a class
 * loader of its own (this package is loaded child-first), as a DevTools restart or a redeploy does. As it
 * starts it runs queued work on the registry's contexts from its own code, so in a fresh JVM the library's
 * threads (the pool's workers and monitor, the watchdog, the clock's timer) are made while this
 * application's classes are on the stack and its loader is the context class loader. It fails to start
 * if a queued callback did not run with this application's loader.
 */
@SpringBootApplication(proxyBeanMethods = false)
public class RestartedApplication {

    @Bean
    ApplicationRunner workOnContexts(SyncContextRegistry registry) {
        return args -> work(registry);
    }

    static void work(SyncContextRegistry registry) throws Exception {
        ClassLoader mine = RestartedApplication.class.getClassLoader();
        List<CompletableFuture<ClassLoader>> seen = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            RendererSyncContext context = registry.forKey("restart-" + i);
            CompletableFuture<ClassLoader> loader = new CompletableFuture<>();
            context.post(() -> loader.complete(Thread.currentThread().getContextClassLoader()));
            seen.add(loader);
        }
        for (CompletableFuture<ClassLoader> loader : seen) {
            ClassLoader ran = loader.get(30, TimeUnit.SECONDS);
            if (ran != mine) {
                throw new IllegalStateException("a queued callback ran with " + ran + ", not " + mine);
            }
        }
        // Released while its callback runs: its forced close is set on the clock's timer thread.
        RendererSyncContext held = registry.forKey("held");
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        held.post(() -> {
            running.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        if (!running.await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the held callback never started");
        }
        registry.release(held);
        release.countDown();
        if (!held.awaitTermination(Duration.ofSeconds(30))) {
            throw new IllegalStateException("the released context never terminated");
        }
    }
}
