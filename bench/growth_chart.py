#!/usr/bin/env python3
"""Draws how a post's cost grows as an SVG: per JDK (one row each), ns per post against the number of
contexts (ContextCountBenchmark, log x and log y, one line per mode, solid = 1 producer, dashed = 2),
bytes per post against the number of contexts (1 producer, log y), and ns per post against producer threads
on one context (ProducersBenchmark). Points are JMH's means; the thin vertical lines are JMH's 99.9 %
error. Python 3 standard library only, as bench/chart.py.

    python3 bench/growth_chart.py docs/bench-growth.svg \\
      --row "Java 17" docs/bench-growth-contexts-17.json docs/bench-growth-producers-17.json \\
      --row "Java 25" docs/bench-growth-contexts-25.json docs/bench-growth-producers-25.json \\
      --note "2026-12-01, loaded 2-core VM"

A (mode, contexts) point missing from the files (a trial not run or one that failed, e.g. out of heap)
is named under its row, so a gap in a line is never silent. Several JSON files for one row may be given
joined with commas (e.g. one run per mode).
"""
import argparse
import json
import functools
import math

import svgdoc
from svgdoc import finish, start, write

COLORS = {"optimized": "#1f6fb4", "lock-inline": "#8e63b8", "netty-nonsticky": "#d0452f",
          "kotlinx-limited": "#3a9a3a", "grpc-sync": "#e08a2c", "vertx-worker": "#8c8c8c",
          "guava-sequential": "#5a5a5a", "baseline": "#b0b0b0"}
ORDER = list(COLORS)

WIDTH = 1080
PANEL_W, PANEL_H = 270, 220
PANEL_X = (80, 430, 780)
ROW_H = PANEL_H + 145
TOP = 96


def load(paths):
    """{(mode, contexts, producers): (mean, error, bytes)} from JMH JSON files (comma-separated), and the JVM."""
    data = []
    for path in paths.split(","):
        with open(path) as f:
            data += json.load(f)
    points = {}
    for r in data:
        params = r.get("params", {})
        pm = r["primaryMetric"]
        if pm["scoreUnit"] != "ns/op":
            raise SystemExit(f"{paths}: expected ns/op, got {pm['scoreUnit']}")
        sec = r.get("secondaryMetrics", {})
        alloc = sec.get("·gc.alloc.rate.norm", sec.get("gc.alloc.rate.norm"))
        key = (params.get("mode", ""), int(params.get("contexts", 1)), int(params.get("producers", 1)))
        points[key] = (pm["score"], float(pm["scoreError"]), alloc["score"] if alloc else float("nan"))
    jvm = f"{data[0].get('vmName', 'JVM')} {data[0].get('jdkVersion', '?')}" if data else "?"
    settings = (f"{data[0].get('forks')} fork, {data[0].get('warmupIterations')}×{data[0].get('warmupTime')} "
                f"warm-up, {data[0].get('measurementIterations')}×{data[0].get('measurementTime')}") if data else ""
    return points, jvm, settings


text = functools.partial(svgdoc.text, size=11)


def fmt_ns(v):
    return f"{v / 1000:g} µs" if v >= 1000 else f"{v:g} ns"


def log_ticks(lo, hi):
    """1-2-5 ticks between lo and hi (both > 0)."""
    ticks = []
    for e in range(math.floor(math.log10(lo)), math.ceil(math.log10(hi)) + 1):
        for m in (1, 2, 5):
            v = m * 10 ** e
            if lo <= v <= hi:
                ticks.append(v)
    return ticks


class Panel:
    """A plot area with a log or linear y axis and categorical log-spaced x positions."""

    def __init__(self, x0, y0, xs, xlabels, ylo, yhi, ylog, title, xtitle, ytitle, unit="ns"):
        self.x0, self.y0, self.xs, self.ylo, self.yhi, self.ylog = x0, y0, xs, ylo, yhi, ylog
        self.out = [text(x0, y0 - 12, title, size=12, weight="bold")]
        self.out.append(f'<rect x="{x0}" y="{y0}" width="{PANEL_W}" height="{PANEL_H}" fill="none" stroke="#bbb"/>')
        for v, label in zip(xs, xlabels):
            x = self.px(v)
            self.out.append(f'<line x1="{x:.1f}" y1="{y0}" x2="{x:.1f}" y2="{y0 + PANEL_H}" stroke="#eee"/>')
            self.out.append(text(x, y0 + PANEL_H + 15, label, size=10, anchor="middle", fill="#555"))
        self.out.append(text(x0 + PANEL_W / 2, y0 + PANEL_H + 31, xtitle, size=10, anchor="middle", fill="#555"))
        ticks = log_ticks(ylo, yhi) if ylog else [ylo + (yhi - ylo) * i / 4 for i in range(5)]
        for v in ticks:
            y = self.py(v)
            self.out.append(f'<line x1="{x0}" y1="{y:.1f}" x2="{x0 + PANEL_W}" y2="{y:.1f}" stroke="#eee"/>')
            label = fmt_ns(v) if unit == "ns" else f"{v:,g} B"
            self.out.append(text(x0 - 5, y + 3, label, size=10, anchor="end", fill="#555"))
        self.out.append(text(x0 - 58, y0 + PANEL_H / 2, ytitle, size=10, anchor="middle", fill="#555",
                             extra=f' transform="rotate(-90 {x0 - 58} {y0 + PANEL_H / 2})"'))

    def px(self, v):
        lo, hi = math.log(self.xs[0]), math.log(self.xs[-1])
        return self.x0 + 18 + (PANEL_W - 36) * (math.log(v) - lo) / (hi - lo)

    def py(self, v):
        if self.ylog:
            v = min(max(v, self.ylo), self.yhi)
            f = (math.log10(v) - math.log10(self.ylo)) / (math.log10(self.yhi) - math.log10(self.ylo))
        else:
            f = (v - self.ylo) / (self.yhi - self.ylo)
        return self.y0 + PANEL_H - PANEL_H * f

    def line(self, pts, color, dashed=False, errors=None):
        if not pts:
            return
        d = " ".join(f"{'M' if i == 0 else 'L'}{self.px(x):.1f},{self.py(y):.1f}" for i, (x, y) in enumerate(pts))
        dash = ' stroke-dasharray="5,4"' if dashed else ""
        self.out.append(f'<path d="{d}" fill="none" stroke="{color}" stroke-width="2"{dash}/>')
        for i, (x, y) in enumerate(pts):
            if errors and errors[i] == errors[i] and errors[i] > 0:
                top, bottom = self.py(y + errors[i]), self.py(max(y - errors[i], self.ylo))
                self.out.append(f'<line x1="{self.px(x):.1f}" y1="{top:.1f}" x2="{self.px(x):.1f}" y2="{bottom:.1f}" '
                                f'stroke="{color}" stroke-width="1" opacity="0.25"/>')
            fill = "#fff" if dashed else color
            self.out.append(f'<circle cx="{self.px(x):.1f}" cy="{self.py(y):.1f}" r="3.2" fill="{fill}" '
                            f'stroke="{color}" stroke-width="1.5"/>')


def chart(rows, note):
    loaded = [(label, load(ctx), load(prod)) for label, ctx, prod in rows]
    ctx_counts = sorted({k[1] for _, (p, _, _), _ in loaded for k in p})
    producer_counts = sorted({k[2] for _, _, (p, _, _) in loaded for k in p})
    ctx_modes = sorted({k[0] for _, (p, _, _), _ in loaded for k in p}, key=lambda m: (ORDER + [m]).index(m))
    prod_modes = sorted({k[0] for _, _, (p, _, _) in loaded for k in p}, key=lambda m: (ORDER + [m]).index(m))
    times = [v[0] for _, (p, _, _), (q, _, _) in loaded for v in list(p.values()) + list(q.values()) if v[0] > 0]
    ylo = 10 ** math.floor(math.log10(min(times)))
    yhi = 10 ** math.ceil(math.log10(max(times)))
    bytes_max = max([v[2] for _, (p, _, _), _ in loaded for v in p.values() if v[2] == v[2]] + [1])
    bytes_hi = 10 ** max(1, math.ceil(math.log10(bytes_max)))

    height = TOP + len(loaded) * ROW_H + 40
    out = start(WIDTH, height) + [
        text(20, 28, "How a post's cost grows: with the number of contexts, and with producer threads on one context",
             size=16, weight="bold"),
        text(20, 48, "ContextCountBenchmark (2,000,000 posts per invocation, round-robin in a shuffled order over "
             "every context) and ProducersBenchmark (10,000 posts on one context); -prof gc; no JVM flags",
             size=11, fill="#555")]
    if note:
        out.append(text(20, 64, note, size=11, fill="#555"))
    # legend
    lx = 20
    for mode in [m for m in ORDER if m in ctx_modes or m in prod_modes]:
        out.append(f'<line x1="{lx}" y1="80" x2="{lx + 22}" y2="80" stroke="{COLORS[mode]}" stroke-width="2"/>')
        out.append(text(lx + 27, 84, mode, size=11, fill=COLORS[mode], weight="bold" if mode == "optimized" else "normal"))
        lx += 40 + 7 * len(mode)
    out.append(f'<line x1="{lx}" y1="80" x2="{lx + 22}" y2="80" stroke="#444" stroke-width="2"/>')
    out.append(text(lx + 27, 84, "1 producer", size=11, fill="#444"))
    lx += 100
    out.append(f'<line x1="{lx}" y1="80" x2="{lx + 22}" y2="80" stroke="#444" stroke-width="2" stroke-dasharray="5,4"/>')
    out.append(text(lx + 27, 84, "2 producers", size=11, fill="#444"))

    def ctx_label(c):
        return {1: "1", 100: "10²", 10_000: "10⁴", 1_000_000: "10⁶"}.get(c, f"{c:,}")

    for row, (label, (cpts, cjvm, csettings), (ppts, pjvm, psettings)) in enumerate(loaded):
        y0 = TOP + row * ROW_H + 40
        out.append(text(20, y0 - 30, f"{label}: {cjvm}", size=13, weight="bold"))
        left = Panel(PANEL_X[0], y0, ctx_counts, [ctx_label(c) for c in ctx_counts], ylo, yhi, True,
                     "ns per post against contexts", "contexts (log)", "ns per post (log)")
        middle = Panel(PANEL_X[1], y0, ctx_counts, [ctx_label(c) for c in ctx_counts], 1, bytes_hi, True,
                       "bytes per post against contexts (1 producer)", "contexts (log)", "B per post (log)", unit="B")
        right = Panel(PANEL_X[2], y0, producer_counts, [str(p) for p in producer_counts], ylo, yhi, True,
                      "ns per post against producers (1 context)", "producer threads (log)", "ns per post (log)")
        missing = []
        row_modes = [m for m in ctx_modes if any(k[0] == m for k in cpts)]
        for mode in row_modes:
            for producers, dashed in ((1, False), (2, True)):
                series = [(c, cpts[(mode, c, producers)]) for c in ctx_counts if (mode, c, producers) in cpts]
                left.line([(c, v[0]) for c, v in series], COLORS.get(mode, "#444"), dashed, [v[1] for _, v in series])
                if producers == 1:
                    middle.line([(c, v[2]) for c, v in series if v[2] == v[2]], COLORS.get(mode, "#444"))
                gaps = [ctx_label(c) for c in ctx_counts if (mode, c, producers) not in cpts]
                if gaps:
                    missing.append(f"{mode}, {producers} producer{'s' if producers > 1 else ''}: "
                                   + ("any count" if len(gaps) == len(ctx_counts) else ", ".join(gaps)))
        for mode in prod_modes:
            series = [(p, ppts[(mode, 1, p)]) for p in producer_counts if (mode, 1, p) in ppts]
            right.line([(p, v[0]) for p, v in series], COLORS.get(mode, "#444"), False, [v[1] for _, v in series])
        for panel in (left, middle, right):
            out += panel.out
        foot = y0 + PANEL_H + 50
        out.append(text(PANEL_X[0] - 60, foot, f"contexts: {csettings}; producers: {psettings}"
                        + (f"; producers on {pjvm}" if pjvm != cjvm else ""), size=10, fill="#666"))
        if missing:
            lines, line = [], "not measured (contexts; bench/README.md says why): "
            for item in missing:
                if len(line) + len(item) > 170:
                    lines.append(line)
                    line = "    "
                line += item + "; "
            lines.append(line.rstrip("; "))
            for i, l in enumerate(lines[:3]):
                out.append(text(PANEL_X[0] - 60, foot + 15 + 13 * i, l, size=10, fill="#a33"))
    out.append(text(20, height - 14, "Lower is better. One operation = one post; time is wall time per post of the "
                    "whole system (producers and drains) on a 2-core machine.", size=10, fill="#666"))
    return finish(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("svg", help="where to write the SVG")
    parser.add_argument("--row", nargs=3, action="append", required=True, metavar=("LABEL", "CONTEXTS_JSON", "PRODUCERS_JSON"),
                        help="one row: a label, ContextCountBenchmark's JMH JSON, ProducersBenchmark's JMH JSON")
    parser.add_argument("--note", default="", help="a line under the title, e.g. the date and the machine's load")
    args = parser.parse_args()
    svg = chart(args.row, args.note)
    write(args.svg, svg)
    print(f"wrote {args.svg}")


if __name__ == "__main__":
    main()
