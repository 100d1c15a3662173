package dev.synccontext.sample;

import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Collectors;

import javax.management.ObjectName;

/** The JVM's live-object class histogram (what {@code jcmd PID GC.class_histogram} prints), in process. */
final class HeapHistogram {

    private HeapHistogram() {
    }

    /** Bytes per class of the live objects (forces a full GC, as {@code jcmd} does). */
    static Map<String, Long> take() {
        return take(2);
    }

    /** Live instances per class. */
    static Map<String, Long> instances() {
        return take(1);
    }

    private static Map<String, Long> take(int column) {
        String text;
        try {
            text = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                    new Object[] {new String[0]}, new String[] {String[].class.getName()});
        } catch (Exception unavailable) {
            System.out.println("no class histogram: " + unavailable);
            return Map.of();
        }
        Map<String, Long> bytes = new HashMap<>();
        for (String line : text.split("\n")) {
            String[] cols = line.trim().split("\\s+");
            if (cols.length >= 4 && cols[0].endsWith(":")) {
                bytes.merge(cols[3], Long.parseLong(cols[column]), Long::sum);
            }
        }
        return bytes;
    }

    /** The {@code top} classes that grew most from {@code before} to {@code after}, one per line. */
    static String growth(Map<String, Long> before, Map<String, Long> after, int top) {
        return after.entrySet().stream()
                .map(e -> Map.entry(e.getKey(), e.getValue() - before.getOrDefault(e.getKey(), 0L)))
                .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
                .limit(top)
                .map(e -> String.format("  %,12d B  %s", e.getValue(), e.getKey()))
                .collect(Collectors.joining("\n"));
    }
}
