#!/usr/bin/env python3
"""Prints a SeedBenchmarks JMH JSON run as bench/README.md's peers table: one row per scenario, one
column per mode (ns per call ± JMH's 99.9 % error, bytes per call from -prof gc), then the ratio of
ours (optimized) to the best peer in the same run and to lock-inline.

Peers for the ratio: every mode but optimized and lock-inline (lock-inline runs posts inline under its
lock, a floor rather than the post contract; it has its own ratio column).

    python3 bench/format_peers.py bench/jmh/target/peers-java17.json
"""
import json
import sys

SCENARIOS = ["InvokeAsyncReady", "InvokeAsyncBusy", "PostSerial", "PostConcurrent", "post"]
MODES = ["optimized", "lock-inline", "guava-sequential", "netty-nonsticky", "kotlinx-limited", "grpc-sync",
         "vertx-worker"]


def fmt_ns(v):
    return f"{v:,.0f}" if v >= 1000 else f"{v:.1f}"


def fmt_b(v):
    return f"{v:,.0f} B" if v >= 10 else f"{v:.1f} B"


def main(path):
    with open(path) as f:
        data = json.load(f)
    cells = {}
    for r in data:
        method = r["benchmark"].rsplit(".", 1)[1]
        params = r.get("params", {})
        mode = params["mode"]
        key = method if "producers" not in params else f"{params['producers']} producers"
        pm = r["primaryMetric"]
        alloc = r.get("secondaryMetrics", {}).get("gc.alloc.rate.norm") or r.get("secondaryMetrics", {}).get(
            "·gc.alloc.rate.norm")
        cells.setdefault(key, {})[mode] = (pm["score"], pm["scoreError"], alloc["score"] if alloc else float("nan"))
    modes = [m for m in MODES if any(m in row for row in cells.values())]
    modes += sorted({m for row in cells.values() for m in row} - set(modes))
    keys = [k for k in SCENARIOS if k in cells] + sorted(k for k in cells if k not in SCENARIOS)
    header = ["scenario"] + modes + ["ours / best peer", "ours / lock-inline"]
    print("| " + " | ".join(header) + " |")
    print("|---|" + "---:|" * (len(header) - 1))
    for k in keys:
        row = cells[k]
        line = [k]
        for m in modes:
            if m in row:
                s, e, b = row[m]
                line.append(f"{fmt_ns(s)} ± {fmt_ns(e)}, {fmt_b(b)}")
            else:
                line.append("")
        ours = row.get("optimized")
        peers = {m: v for m, v in row.items() if m not in ("optimized", "lock-inline")}
        if ours and peers:
            best = min(peers, key=lambda m: peers[m][0])
            line.append(f"{ours[0] / peers[best][0]:.2f} ({best})")
        else:
            line.append("")
        line.append(f"{ours[0] / row['lock-inline'][0]:.2f}" if ours and "lock-inline" in row else "")
        print("| " + " | ".join(line) + " |")


if __name__ == "__main__":
    main(sys.argv[1])
