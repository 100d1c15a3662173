#!/usr/bin/env python3
"""Prints JMH JSON runs (SeedBenchmarks, ExtraBenchmarks, ProducersBenchmark; one file or several of one
JDK) as README.md's comparison table: one row per scenario, one column per mode (ns per call ± JMH's
99.9 % error, bytes per call from -prof gc), then the ratio of ours (optimized) to the best hand-off peer
in the same run and to lock-inline.

Hand-off peers for the ratio (the queued-path goal: a post never runs on the posting thread): netty-nonsticky,
kotlinx-limited, guava-sequential, vertx-worker, single-thread. Not among them: lock-inline (the caller
runs the callback under a lock; its own ratio column), grpc-sync (drains on the calling thread, so its
posts run inline when the context is free) and baseline (the design the context replaced).

    python3 bench/format_peers.py seed-17.json extra-17.json
"""
import json
import sys

SCENARIOS = ["InvokeAsyncReady", "InvokeAsyncBusy", "PostSerial", "PostConcurrent", "Contended", "ManyContexts",
             "post"]
MODES = ["optimized", "lock-inline", "netty-nonsticky", "kotlinx-limited", "guava-sequential", "vertx-worker",
         "single-thread", "grpc-sync", "baseline"]
HAND_OFF = {"netty-nonsticky", "kotlinx-limited", "guava-sequential", "vertx-worker", "single-thread"}


def fmt_ns(v):
    return f"{v:,.0f}" if v >= 1000 else f"{v:.1f}"


def fmt_b(v):
    return f"{v:,.0f} B" if v >= 10 else f"{v:.1f} B"


def main(paths):
    data = []
    for path in paths:
        with open(path) as f:
            data += json.load(f)
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
    header = ["scenario"] + modes + ["ours / best hand-off", "ours / lock-inline"]
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
        peers = {m: v for m, v in row.items() if m in HAND_OFF}
        if ours and peers:
            best = min(peers, key=lambda m: peers[m][0])
            ratio = ours[0] / peers[best][0]
            line.append(f"{ratio:.2f} ({best})" if ratio >= 0.1 else f"{ratio:.1g} ({best})")
        else:
            line.append("")
        line.append(f"{ours[0] / row['lock-inline'][0]:.2f}" if ours and "lock-inline" in row else "")
        print("| " + " | ".join(line) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
