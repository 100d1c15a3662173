package dev.synccontext;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import jdk.jfr.EventType;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * The child JVM of {@link FlightRecorderFirstUseTest}: times the first {@code closeNow()} of this JVM on
 * a context whose callback is held by another thread, with work queued behind it, and prints what a
 * recording got. Lines: {@code FIRST_CLOSE <wall ns> <thread CPU ns>}, {@code REGISTERED_OFF_CALLER},
 * {@code EVENT <type> <context> <dropped>}, {@code EXIT}; and the class {@link FirstCloseDone} is
 * loaded right after the first close, as a mark in a class-loading log.
 *
 * <p>Modes ({@code args[0]}):
 * <ul>
 *   <li>{@code fresh}: no recording at first; after the timed close, starts one and closes a second
 *       context with dropped work.</li>
 *   <li>{@code started}: the JVM runs with {@code -XX:StartFlightRecording:name=probe}; waits until the
 *       watchdog has registered the event classes (one callback starts it), then the timed close, then
 *       dumps that recording.</li>
 * </ul>
 */
public final class FirstCloseProbe {

    private FirstCloseProbe() {
    }

    public static void main(String[] args) throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        // What any application has done long before it closes a context: the JVM's first string
        // concatenation (its bootstrap alone takes 10-20 ms). The library's own first use stays measured.
        String warm = "warm " + System.nanoTime();
        if (warm.isEmpty()) {
            throw new AssertionError();
        }
        switch (args[0]) {
            case "fresh" -> fresh(threads);
            case "started" -> started(threads);
            default -> throw new IllegalArgumentException(args[0]);
        }
        System.out.println("EXIT");
    }

    private static void fresh(ThreadMXBean threads) throws Exception {
        timedClose(threads, "first");
        // A mark in the class-loading log: what loaded before it, loaded by the first close (or before).
        Class.forName(FirstCloseDone.class.getName());
        try (Recording recording = new Recording()) {
            recording.enable("dev.synccontext.ContextClosedWithDroppedWork");
            recording.start();
            closeWithDroppedWork("after-recording-started");
            recording.stop();
            printEvents(recording);
        }
    }

    private static void started(ThreadMXBean threads) throws Exception {
        RendererSyncContext starter = RendererSyncContext.create();
        starter.invokeAsync(() -> { }).join(); // a thread entered a callback: the watchdog runs
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        // Only the watchdog's registration makes this type known: nothing here emits a QueueWait event.
        while (!registered("dev.synccontext.QueueWait")) {
            if (System.nanoTime() - deadline > 0) {
                System.out.println("NOT_REGISTERED");
                return;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
        System.out.println("REGISTERED_OFF_CALLER");
        timedClose(threads, "while-recording");
        Recording recording = FlightRecorder.getFlightRecorder().getRecordings().stream()
                .filter(r -> r.getName().equals("probe")).findFirst().orElseThrow();
        recording.stop();
        printEvents(recording);
    }

    private static boolean registered(String name) {
        for (EventType type : FlightRecorder.getFlightRecorder().getEventTypes()) {
            if (type.getName().equals(name)) {
                return true;
            }
        }
        return false;
    }

    private static void timedClose(ThreadMXBean threads, String name) throws Exception {
        Held held = Held.on(name);
        long cpu = threads.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        List<Runnable> posts = held.ctx.closeNow();
        long wall = System.nanoTime() - start;
        cpu = threads.getCurrentThreadCpuTime() - cpu;
        held.release();
        if (posts.size() != 1) {
            throw new AssertionError("expected the queued post back, got " + posts);
        }
        System.out.println("FIRST_CLOSE " + wall + " " + cpu);
    }

    private static void closeWithDroppedWork(String name) throws Exception {
        Held held = Held.on(name);
        held.ctx.closeNow();
        held.release();
    }

    private static void printEvents(Recording recording) throws Exception {
        Path dump = Files.createTempFile("synccontext-first-close", ".jfr");
        try {
            recording.dump(dump);
            for (RecordedEvent e : RecordingFile.readAllEvents(dump)) {
                String type = e.getEventType().getName();
                if (type.startsWith("dev.synccontext.")) {
                    System.out.println("EVENT " + type + " " + e.getString("context")
                            + (e.hasField("dropped") ? " " + e.getInt("dropped") : ""));
                }
            }
        } finally {
            Files.deleteIfExists(dump);
        }
    }

    /** Loaded right after the first close in {@code fresh} mode, and for nothing else. */
    static final class FirstCloseDone {
        private FirstCloseDone() {
        }
    }

    /** A context whose callback a thread of its own holds, with a call and a post queued behind it. */
    private static final class Held {
        final RendererSyncContext ctx;
        final CountDownLatch release = new CountDownLatch(1);
        final Thread holder;

        private Held(String name) throws InterruptedException {
            ctx = RendererSyncContext.builder().name(name).build();
            CountDownLatch inside = new CountDownLatch(1);
            holder = new Thread(() -> ctx.send(() -> {
                inside.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }), "holder-" + name);
            holder.start();
            inside.await();
            ctx.invokeAsync(() -> { });
            ctx.post(() -> { });
        }

        static Held on(String name) throws InterruptedException {
            return new Held(name);
        }

        void release() throws InterruptedException {
            release.countDown();
            holder.join();
        }
    }
}
