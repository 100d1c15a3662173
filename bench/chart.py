#!/usr/bin/env python3
"""Draws JMH JSON results (from bench/run.sh) as an SVG chart: per scenario, every context
implementation's time per operation (log scale, with JMH's 99.9% error) and bytes allocated per
operation (from -prof gc). Python 3 standard library only; the SVG is written by hand.

    python3 bench/chart.py bench/jmh/target/jmh-quick.json docs/bench-chart.svg
    python3 bench/chart.py bench/jmh/target/jmh-full.json docs/bench-chart.svg --note "quiet 2-core VM"

The chart's subtitle names the variant (from the file name jmh-<variant>.json), the JMH settings and the
JVM the numbers came from, so a picture never loses where it came from.
"""
import argparse
import json
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from format_table import MODES, ORDER, rows  # noqa: E402  (same parsing as the table)
from svgdoc import finish, start, text, write  # noqa: E402

COLORS = {"baseline": "#8c8c8c", "optimized": "#1f6fb4", "single-thread": "#e08a2c",
          "guava-sequential": "#3a9a3a", "lock-inline": "#8e63b8", "netty-nonsticky": "#c0392b",
          "kotlinx-limited": "#d35fb7", "grpc-sync": "#17a2b8", "vertx-worker": "#7f6a3a"}
NOT_RUN = {"single-thread": "not run: one thread per context"}

WIDTH = 1040
LABEL_W = 190          # scenario and mode names
TIME_X, TIME_W = 200, 430
BYTES_X, BYTES_W = 740, 200
BAR_H, BAR_GAP = 13, 4
GROUP_HEAD = 22
GROUP_GAP = 14
TOP = 118


def fmt_time(ns):
    if ns >= 1e6:
        return f"{ns / 1e6:,.1f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:,.1f} µs"
    return f"{ns:,.1f} ns"


def fmt_bytes(b):
    return "NA" if b != b else f"{b:,.0f} B" if b >= 10 else f"{b:,.1f} B"


def nice_ceiling(v):
    if v <= 0:
        return 1
    exp = 10 ** math.floor(math.log10(v))
    for m in (1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if v <= m * exp:
            return m * exp
    return 10 * exp


def subtitle(path, results_json, note):
    r = results_json[0]
    match = re.search(r"jmh-([\w-]+)\.json$", os.path.basename(path))
    variant = match.group(1) if match else os.path.basename(path)
    line1 = (f"bench/run.sh {variant}: JMH {r.get('jmhVersion', '?')}, {r.get('forks')} fork(s), "
             f"{r.get('warmupIterations')}×{r.get('warmupTime')} warm-up, "
             f"{r.get('measurementIterations')}×{r.get('measurementTime')} measurement, -prof gc")
    flags = ' '.join(r.get('jvmArgs', [])) or "no JVM flags"
    line2 = f"{r.get('vmName', 'JVM')} {r.get('jdkVersion', '?')}; {flags}" + (f"; {note}" if note else "")
    return line1, line2


def chart(path, note):
    with open(path) as f:
        raw = json.load(f)
    data = rows(path)
    by_method = {}
    for r in data:
        if r["unit"] != "ns/op":
            sys.exit(f"expected ns/op from JMH, got {r['unit']}")
        by_method.setdefault(r["method"], {})[r["mode"]] = r
    methods = [m for m in ORDER if m in by_method] + [m for m in by_method if m not in ORDER]
    modes = [m for m in MODES if any(m in by_method[x] for x in methods)]

    means = [r["mean"] for r in data if r["mean"] > 0]
    lo_exp = math.floor(math.log10(min(means)))
    hi_exp = math.ceil(math.log10(max(means)))
    if hi_exp == lo_exp:
        hi_exp += 1
    max_bytes = nice_ceiling(max((r["bop"] for r in data if r["bop"] == r["bop"]), default=1))

    def tx(ns):
        ns = max(ns, 10 ** lo_exp)
        return TIME_X + TIME_W * (math.log10(ns) - lo_exp) / (hi_exp - lo_exp)

    def bx(b):
        return BYTES_X + BYTES_W * b / max_bytes

    group_h = GROUP_HEAD + len(modes) * (BAR_H + BAR_GAP) + GROUP_GAP
    height = TOP + len(methods) * group_h + 40
    out = start(WIDTH, height)
    line1, line2 = subtitle(path, raw, note)
    out.append(text(20, 30, "RendererSyncContext (optimized) against the baseline and the alternatives, per scenario",
                    size=17, weight="bold"))
    out.append(text(20, 52, line1, size=11, fill="#555"))
    out.append(text(20, 68, line2, size=11, fill="#555"))
    out.append(text(TIME_X, 98, "Time per operation (log scale; bar = mean, line = 99.9% error)", size=12, weight="bold"))
    out.append(text(BYTES_X, 98, "Allocated per operation (-prof gc)", size=12, weight="bold"))

    grid_top, grid_bottom = TOP - 6, TOP + len(methods) * group_h - GROUP_GAP
    for e in range(lo_exp, hi_exp + 1):
        x = tx(10 ** e)
        out.append(f'<line x1="{x:.1f}" y1="{grid_top}" x2="{x:.1f}" y2="{grid_bottom}" stroke="#e3e3e3"/>')
        out.append(text(x, grid_bottom + 16, fmt_time(10 ** e).replace(".0 ", " "), size=10, anchor="middle", fill="#666"))
    for i in range(5):
        b = max_bytes * i / 4
        x = bx(b)
        out.append(f'<line x1="{x:.1f}" y1="{grid_top}" x2="{x:.1f}" y2="{grid_bottom}" stroke="#e3e3e3"/>')
        out.append(text(x, grid_bottom + 16, f"{b:,.0f} B", size=10, anchor="middle", fill="#666"))

    y = TOP
    for method in methods:
        out.append(text(20, y + 12, method, size=13, weight="bold"))
        y += GROUP_HEAD
        for mode in modes:
            r = by_method[method].get(mode)
            bold = "bold" if mode == "optimized" else "normal"
            out.append(text(LABEL_W, y + BAR_H - 2, mode, size=11, anchor="end", weight=bold,
                            fill=COLORS.get(mode, "#222")))
            if r is None:
                out.append(text(TIME_X + 4, y + BAR_H - 2, NOT_RUN.get(mode, "not run"), size=10, fill="#999",
                                extra=' font-style="italic"'))
                y += BAR_H + BAR_GAP
                continue
            color = COLORS.get(mode, "#444")
            x1 = tx(r["mean"])
            out.append(f'<rect x="{TIME_X}" y="{y}" width="{max(x1 - TIME_X, 1):.1f}" height="{BAR_H}" fill="{color}"/>')
            err = r["err"]
            if err == err and err > 0:
                ex0 = tx(r["mean"] - err) if r["mean"] > err else TIME_X
                ex1 = min(tx(r["mean"] + err), TIME_X + TIME_W)  # an error past the axis is cut there
                ym = y + BAR_H / 2
                out.append(f'<line x1="{ex0:.1f}" y1="{ym:.1f}" x2="{ex1:.1f}" y2="{ym:.1f}" stroke="#333" '
                           f'stroke-width="1" opacity="0.55"/>')
                if ex1 < TIME_X + TIME_W:
                    out.append(f'<line x1="{ex1:.1f}" y1="{y + 3}" x2="{ex1:.1f}" y2="{y + BAR_H - 3}" '
                               f'stroke="#333" stroke-width="1" opacity="0.55"/>')
                x1 = max(x1, ex1)
            label_x = x1 + 5
            out.append(text(label_x, y + BAR_H - 2, fmt_time(r["mean"]), size=10, weight=bold))
            b = r["bop"]
            if b == b:
                x2 = bx(b)
                out.append(f'<rect x="{BYTES_X}" y="{y}" width="{max(x2 - BYTES_X, 1):.1f}" height="{BAR_H}" fill="{color}"/>')
                out.append(text(x2 + 5, y + BAR_H - 2, fmt_bytes(b), size=10, weight=bold))
            y += BAR_H + BAR_GAP
        y += GROUP_GAP
    out.append(text(20, height - 12, "One operation = one call on a context (the reference table is per invocation: "
                    "×1,000 calls, ×10,000 for PostConcurrent, ×2,000 Contended, ×100,000 ManyContexts). "
                    "Shorter is better.", size=10, fill="#666"))
    return finish(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("json", nargs="?", default="bench/jmh/target/jmh-quick.json", help="JMH JSON (bench/run.sh's -rff)")
    parser.add_argument("svg", nargs="?", default="docs/bench-chart.svg", help="where to write the SVG")
    parser.add_argument("--note", default="", help="appended to the subtitle, e.g. the machine")
    args = parser.parse_args()
    svg = chart(args.json, args.note)
    write(args.svg, svg)
    print(f"wrote {args.svg} from {args.json}")


if __name__ == "__main__":
    main()
