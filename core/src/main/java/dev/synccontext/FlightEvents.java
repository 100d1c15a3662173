package dev.synccontext;

import java.lang.invoke.MethodHandles;
import java.util.List;
import jdk.jfr.FlightRecorder;

/**
 * Emits the JDK Flight Recorder events ({@link BlockedCallbackEvent}, {@link QueueWaitEvent},
 * {@link DroppedWorkEvent}), only from paths that are rare already (a report, a sampled callback, a
 * {@code closeNow()} that dropped work), each behind the event's own {@code shouldCommit()}: with no
 * recording running an event object is made and dropped (escape analysis removes it), no field is
 * filled. On a runtime without the {@code jdk.jfr} module nothing is emitted at all.
 *
 * <h2>No event class before the recorder</h2>
 * The first touch of an event class registers it with the recorder, which loads and starts a good part
 * of {@code jdk.jfr} on the touching thread: measured in a fresh JVM, the first {@code closeNow()} that
 * dropped work took 140-820 ms (Java 17 and 25, a loaded 2-CPU machine), every later one 0.1 ms. So no
 * event class is touched until the recorder has been initialized ({@link FlightRecorder#isInitialized()}:
 * a recording was started, by the API, {@code jcmd} or {@code -XX:StartFlightRecording}); before that
 * no recording could take an event anyway. The check costs 0.2 ms the first time (two small classes)
 * and a volatile read once it has said yes; while it says no, each rare path asks again, so a
 * recording started at any time gets the events that follow. Once the recorder is up, the watchdog
 * thread initializes the classes at its next scan ({@link #registerOffCaller}), so that the first event
 * usually finds them registered; a path that gets there first registers them itself (measured: about
 * 30 ms on Java 17, 7 ms on Java 25, once per JVM, and only with Flight Recorder in use).
 */
final class FlightEvents {

    private static final boolean AVAILABLE = ModuleLayer.boot().findModule("jdk.jfr").isPresent();

    /** Set once the recorder was seen initialized; it never goes back. */
    private static volatile boolean recorderSeen;
    /** Set once the watchdog registered the event classes. */
    private static volatile boolean registered;

    private FlightEvents() {
    }

    /** Whether a recording may have been started in this JVM: only then is an event class touched. */
    static boolean recorderInitialized() {
        if (recorderSeen) {
            return true;
        }
        if (!AVAILABLE || !FlightRecorder.isInitialized()) {
            return false;
        }
        recorderSeen = true;
        return true;
    }

    /**
     * Called by the watchdog thread at each scan: once the recorder is initialized, initializes the event
     * classes there (an event class registers itself as it initializes), so that the thread of the first
     * event (a {@code closeNow()} caller, a drain) does not pay for it. Costs a volatile read once done.
     *
     * <p>Initializes, never calls {@link FlightRecorder#register}: on Java 17 that takes the recorder's
     * metadata lock and then waits for the class's initialization, while a class initializing on
     * another thread (a first event there) holds its initialization and waits for that lock. The two
     * threads deadlock; the probe of {@code FlightRecorderFirstUseTest} hung so.
     */
    static void registerOffCaller() {
        if (registered || !recorderInitialized()) {
            return;
        }
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            lookup.ensureInitialized(BlockedCallbackEvent.class);
            lookup.ensureInitialized(QueueWaitEvent.class);
            lookup.ensureInitialized(DroppedWorkEvent.class);
        } catch (IllegalAccessException samePackage) {
            throw new AssertionError(samePackage);
        } finally {
            registered = true; // tried once: a failure is logged by the watchdog once, not at every scan
        }
    }

    static void blocked(BlockedCallback blocked) {
        if (!recorderInitialized()) {
            return;
        }
        BlockedCallbackEvent event = new BlockedCallbackEvent();
        if (event.shouldCommit()) {
            event.context = blocked.contextName();
            event.scope = blocked.scope();
            StackTraceElement site = blocked.callbackSite();
            event.callbackSite = site == null ? null : site.toString();
            event.runningFor = blocked.runningFor().toNanos();
            event.queuedFor = blocked.queuedFor() == null ? -1 : blocked.queuedFor().toNanos();
            event.threadName = blocked.threadName();
            event.virtualThread = blocked.virtualThread();
            event.stack = frames(blocked.stack());
            event.submitStack = blocked.submitStack().isEmpty() ? null : frames(blocked.submitStack());
            event.commit();
        }
    }

    static void queueWait(SyncContext ctx, long waitNanos, long runNanos) {
        if (!recorderInitialized()) {
            return;
        }
        QueueWaitEvent event = new QueueWaitEvent();
        if (event.shouldCommit()) {
            event.context = ctx.name;
            event.scope = ctx.settings.scope;
            event.queuedFor = waitNanos;
            event.ranFor = runNanos;
            event.commit();
        }
    }

    static void droppedWork(SyncContext ctx, int dropped, int postsReturned) {
        if (!recorderInitialized()) {
            return;
        }
        DroppedWorkEvent event = new DroppedWorkEvent();
        if (event.shouldCommit()) {
            event.context = ctx.name;
            event.scope = ctx.settings.scope;
            event.dropped = dropped;
            event.postsReturned = postsReturned;
            event.commit();
        }
    }

    private static String frames(List<StackTraceElement> stack) {
        StringBuilder s = new StringBuilder();
        for (StackTraceElement frame : stack) {
            s.append("at ").append(frame).append('\n');
        }
        return s.toString();
    }
}
