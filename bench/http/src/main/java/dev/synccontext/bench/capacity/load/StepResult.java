package dev.synccontext.bench.capacity.load;

/**
 * One step of a capacity run: N live sessions, and what the client and the server showed in its window.
 *
 * @param sessions live sessions (tabs with an open stream) the step asked for
 * @param live tabs live at the end of the window
 * @param window the load client's window
 * @param serverCpu server CPU seconds per wall second in the window (1.0 = one core)
 * @param clientCpu the same for the load client's process
 * @param heapPerSession live heap after a full GC, less the server's live heap before any session, per session
 * @param liveHeap live heap after a full GC, bytes
 * @param rss the server's resident memory, bytes
 * @param threads the server's threads
 * @param fds the server's open file descriptors
 * @param load the machine's one-minute load average at the end of the window
 */
record StepResult(int sessions, int live, Window window, double serverCpu, double clientCpu, long heapPerSession,
        long liveHeap, long rss, int threads, int fds, double load) {

    /** Within capacity: every session live, p99 under 200 ms, no error and no overrun. */
    boolean withinCapacity() {
        return live == sessions && window.errorCount() == 0 && window.overruns() == 0
                && window.percentileMillis(0.99) < 200;
    }
}
