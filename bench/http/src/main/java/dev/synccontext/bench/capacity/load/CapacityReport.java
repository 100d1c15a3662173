package dev.synccontext.bench.capacity.load;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** Writes a capacity run's steps as a Markdown table and as an SVG chart of latency against sessions. */
final class CapacityReport {

    private CapacityReport() {
    }

    static String table(List<StepResult> steps) {
        StringBuilder out = new StringBuilder();
        out.append("| live sessions | click → update p50 / p99 / max (ms) | clicks | errors | overruns "
                + "| heap per session | server CPU | client CPU | threads | fds | RSS | load |\n");
        out.append("|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (StepResult step : steps) {
            Window w = step.window();
            out.append(String.format(Locale.ROOT,
                    "| %,d%s | %.1f / %.1f / %.0f | %,d | %s | %,d | %,d B | %.2f | %.2f | %d | %,d | %.2f GB | %.1f |%n",
                    step.sessions(), step.live() == step.sessions() ? "" : " (" + step.live() + " live)",
                    w.percentileMillis(0.5), w.percentileMillis(0.99), w.maxMillis(), w.updates(),
                    errors(w.errors()), w.overruns(), step.heapPerSession(), step.serverCpu(), step.clientCpu(),
                    step.threads(), step.fds(), step.rss() / 1e9, step.load()));
        }
        return out.toString();
    }

    private static String errors(Map<String, Long> errors) {
        return errors.isEmpty() ? "0" : errors.entrySet().stream()
                .map(e -> e.getValue() + " " + e.getKey()).collect(Collectors.joining("; "));
    }

    /** p50, p99 and max against N, log-scaled latency, with the 200 ms line. */
    static String svg(List<StepResult> steps, String title) {
        int width = 640;
        int height = 380;
        int left = 70;
        int right = 20;
        int top = 40;
        int bottom = 50;
        double maxN = steps.stream().mapToInt(StepResult::sessions).max().orElse(1);
        double lo = Math.log10(0.5);
        double hi = Math.log10(20_000);
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "font-family=\"sans-serif\" font-size=\"12\">%n", width, height));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"20\" font-size=\"14\">%s</text>%n", left, title));
        int plotW = width - left - right;
        int plotH = height - top - bottom;
        for (double ms : new double[] {1, 10, 100, 1000, 10000}) {
            double y = top + plotH * (1 - (Math.log10(ms) - lo) / (hi - lo));
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                    + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s ms</text>%n", left, width - right, y, y,
                    left - 6, y + 4, ms >= 1000 ? String.format(Locale.ROOT, "%,.0f", ms) : String.valueOf((int) ms)));
        }
        double y200 = top + plotH * (1 - (Math.log10(200) - lo) / (hi - lo));
        svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#c00\" "
                + "stroke-dasharray=\"4 3\"/><text x=\"%d\" y=\"%.1f\" fill=\"#c00\">p99 limit 200 ms</text>%n",
                left, width - right, y200, y200, width - right - 110, y200 - 4));
        for (StepResult step : steps) {
            double x = left + plotW * step.sessions() / maxN;
            svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%,d</text>%n", x,
                    height - bottom + 16, step.sessions()));
        }
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">live sessions</text>%n",
                left + plotW / 2, height - 12));
        String[] colors = {"#1f77b4", "#ff7f0e", "#555"};
        String[] names = {"p50", "p99", "max"};
        double[] quantiles = {0.5, 0.99, 1.0};
        for (int s = 0; s < 3; s++) {
            StringBuilder points = new StringBuilder();
            for (StepResult step : steps) {
                double ms = quantiles[s] == 1.0 ? step.window().maxMillis() : step.window().percentileMillis(quantiles[s]);
                if (Double.isNaN(ms)) {
                    continue;
                }
                double clamped = Math.max(lo, Math.min(hi, Math.log10(Math.max(ms, 0.5))));
                double x = left + plotW * step.sessions() / maxN;
                double y = top + plotH * (1 - (clamped - lo) / (hi - lo));
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
                svg.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>%n", x, y,
                        colors[s]));
            }
            svg.append(String.format(Locale.ROOT, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\"/>%n",
                    points.toString().trim(), colors[s]));
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"%s\">%s</text>%n", left + 10 + 50 * s,
                    top + 14, colors[s], names[s]));
        }
        svg.append("</svg>\n");
        return svg.toString();
    }
}
