package dev.synccontext.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Formats rows as the reference BenchmarkDotNet table (docs/DESIGN.md): a Markdown-style table with left-aligned text
 * columns and right-aligned figures, times in μs and allocation in KB (1 KB = 1024 bytes, as
 * BenchmarkDotNet), {@code NA} where a figure is unknown.
 */
final class ResultTable {

    private static final String[] HEADER = {"Method", "Mode", "Mean", "Error", "StdDev", "Median", "Allocated"};

    private ResultTable() {
    }

    static String format(List<BenchmarkRow> rows) {
        List<String[]> cells = new ArrayList<>();
        for (BenchmarkRow r : rows) {
            cells.add(new String[] {r.method(), r.mode(), micros(r.meanMicros(), 2), micros(r.errorMicros(), 3),
                micros(r.stdDevMicros(), 3), micros(r.medianMicros(), 2), kilobytes(r.allocatedBytes())});
        }
        int[] width = new int[HEADER.length];
        for (int c = 0; c < HEADER.length; c++) {
            width[c] = HEADER[c].length();
            for (String[] row : cells) {
                width[c] = Math.max(width[c], row[c].length());
            }
        }
        StringBuilder out = new StringBuilder();
        line(out, HEADER, width);
        out.append('|');
        for (int c = 0; c < HEADER.length; c++) {
            out.append(c < 2 ? "-".repeat(width[c] + 1) + " |" : "-".repeat(width[c] + 1) + ":|");
        }
        out.append('\n');
        for (String[] row : cells) {
            line(out, row, width);
        }
        return out.toString();
    }

    private static void line(StringBuilder out, String[] cells, int[] width) {
        out.append('|');
        for (int c = 0; c < cells.length; c++) {
            String pad = " ".repeat(width[c] - cells[c].length());
            out.append(' ').append(c < 2 ? cells[c] + pad : pad + cells[c]).append(" |");
        }
        out.append('\n');
    }

    static String micros(double value, int decimals) {
        return Double.isNaN(value) ? "NA" : String.format(Locale.ROOT, "%,." + decimals + "f μs", value);
    }

    static String kilobytes(double bytes) {
        return bytes < 0 || Double.isNaN(bytes) ? "NA" : String.format(Locale.ROOT, "%,.2f KB", bytes / 1024);
    }
}
