package dev.synccontext.bench.capacity.load;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A process's figures from Linux's {@code /proc}: CPU time, threads, open file descriptors, resident memory;
 * and live heap through {@code jcmd GC.class_histogram} (which runs a full collection first). Linux only.
 */
final class ProcStats {

    /** Clock ticks per second of {@code /proc/<pid>/stat}'s CPU fields ({@code getconf CLK_TCK}: 100 on Linux). */
    private static final double TICKS_PER_SECOND = 100.0;

    private ProcStats() {
    }

    /** User plus system CPU seconds the process used so far. */
    static double cpuSeconds(long pid) {
        String stat = read(Path.of("/proc", Long.toString(pid), "stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        // fields[0] is the state (field 3); utime and stime are fields 14 and 15.
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / TICKS_PER_SECOND;
    }

    static int threads(long pid) {
        return (int) status(pid, "Threads:");
    }

    /** Resident set size in bytes. */
    static long rssBytes(long pid) {
        return status(pid, "VmRSS:") * 1024;
    }

    static int fileDescriptors(long pid) {
        String[] fds = new File("/proc/" + pid + "/fd").list();
        return fds == null ? -1 : fds.length;
    }

    /** The one-minute load average. */
    static double loadAverage() {
        return Double.parseDouble(read(Path.of("/proc/loadavg")).split(" ")[0]);
    }

    /** Bytes of live Java objects after a full collection ({@code jcmd <pid> GC.class_histogram}'s total). */
    static long liveHeapBytes(long pid) {
        return liveHeapBytes(pid, null);
    }

    /**
     * As {@link #liveHeapBytes(long)}, and writes the whole histogram to {@code histogram} if not null: the difference
     * of two steps' histograms, divided by the difference of their sessions, is a session's heap class by class.
     */
    static long liveHeapBytes(long pid, Path histogram) {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        try {
            Process process = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "GC.class_histogram")
                    .redirectErrorStream(true).start();
            List<String> lines = new String(process.getInputStream().readAllBytes()).lines().toList();
            process.waitFor();
            if (histogram != null) {
                Files.write(histogram, lines);
            }
            for (int i = lines.size() - 1; i >= 0; i--) {
                String line = lines.get(i).trim();
                if (line.startsWith("Total")) {
                    String[] parts = line.split("\\s+");
                    return Long.parseLong(parts[2]);
                }
            }
            throw new IllegalStateException("jcmd printed no Total line: " + lines);
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(interrupted);
        }
    }

    private static long status(long pid, String field) {
        for (String line : read(Path.of("/proc", Long.toString(pid), "status")).split("\n")) {
            if (line.startsWith(field)) {
                return Long.parseLong(line.substring(field.length()).trim().split("\\s+")[0]);
            }
        }
        throw new IllegalStateException("No " + field + " in /proc/" + pid + "/status");
    }

    private static String read(Path path) {
        try {
            return Files.readString(path);
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        }
    }
}
