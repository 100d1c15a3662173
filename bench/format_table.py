#!/usr/bin/env python3
"""Prints JMH JSON results (from bench/run.sh) as the reference table, then per operation.

JMH reports per operation (@OperationsPerInvocation = calls on the context per scenario invocation);
the reference table is per invocation, so time and allocation are multiplied back by that count. JMH's
JSON does not record it, so OPS below must match the scenarios' operationsPerInvocation() (the bench
smoke test checks the annotations against the scenarios; keep this dict in step with them).
"""
import json
import math
import sys

OPS = {"InvokeAsyncReady": 1000, "InvokeAsyncBusy": 1000, "PostSerial": 1000, "PostConcurrent": 10000,
       "Contended": 2000, "ManyContexts": 100000}
ORDER = list(OPS)
MODES = ["baseline", "optimized", "single-thread", "guava-sequential", "lock-inline", "netty-nonsticky",
         "kotlinx-limited", "grpc-sync", "vertx-worker"]


def rows(path):
    with open(path) as f:
        data = json.load(f)
    out = []
    for r in data:
        method = r["benchmark"].rsplit(".", 1)[1]
        mode = r.get("params", {}).get("mode", "")
        pm = r["primaryMetric"]
        raw = [x for fork in pm["rawData"] for x in fork]
        n = len(raw)
        mean = pm["score"]
        err = pm["scoreError"]
        sd = math.sqrt(sum((x - mean) ** 2 for x in raw) / (n - 1)) if n > 1 else float("nan")
        srt = sorted(raw)
        median = srt[n // 2] if n % 2 else (srt[n // 2 - 1] + srt[n // 2]) / 2
        alloc = r.get("secondaryMetrics", {}).get("·gc.alloc.rate.norm", r.get("secondaryMetrics", {}).get("gc.alloc.rate.norm"))
        bytes_per_op = alloc["score"] if alloc else float("nan")
        out.append(dict(method=method, mode=mode, mean=mean, err=err, sd=sd, median=median, bop=bytes_per_op,
                        unit=pm["scoreUnit"]))
    out.sort(key=lambda x: (ORDER.index(x["method"]) if x["method"] in ORDER else 99,
                            MODES.index(x["mode"]) if x["mode"] in MODES else 99))
    return out


def table(header, lines):
    widths = [max(len(h), *(len(l[i]) for l in lines)) for i, h in enumerate(header)]
    def fmt(cells):
        return "| " + " | ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths))) + " |"
    print(fmt(header))
    print("|" + "|".join("-" * (w + 1) + (" " if i < 2 else ":") for i, w in enumerate(widths)) + "|")
    for l in lines:
        print(fmt(l))


def num(v, decimals, unit):
    return "NA" if v != v else f"{v:,.{decimals}f} {unit}"


def main(path):
    rs = rows(path)
    for r in rs:
        if r["unit"] != "ns/op":
            sys.exit(f"expected ns/op from JMH, got {r['unit']}")
    print("Per invocation (the reference table; one invocation = the scenario's whole loop):")
    lines = []
    for r in rs:
        k = OPS[r["method"]]
        lines.append([r["method"], r["mode"], num(r["mean"] * k / 1000, 2, "μs"), num(r["err"] * k / 1000, 3, "μs"),
                      num(r["sd"] * k / 1000, 3, "μs"), num(r["median"] * k / 1000, 2, "μs"),
                      num(r["bop"] * k / 1024, 2, "KB")])
    table(["Method", "Mode", "Mean", "Error", "StdDev", "Median", "Allocated"], lines)
    print()
    print("Per operation (one call on the context; Error = 99.9% half-width as JMH; B/op from -prof gc):")
    lines = []
    best = {}
    for r in rs:
        lines.append([r["method"], r["mode"], num(r["mean"], 1, "ns/op"), num(r["err"], 1, "ns/op"),
                      num(r["bop"], 1, "B/op")])
        best.setdefault(r["method"], {})[r["mode"]] = r["mean"]
    table(["Method", "Mode", "Mean", "Error", "Allocated"], lines)
    print()
    print("Speed-up of optimized over each other mode (ratio of means):")
    for method in ORDER:
        modes = best.get(method)
        if not modes or "optimized" not in modes:
            continue
        opt = modes["optimized"]
        parts = [f"{m} {modes[m] / opt:,.1f}x" for m in MODES if m in modes and m != "optimized"]
        print(f"  {method:17s} " + ", ".join(parts))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "bench/jmh/target/jmh-quick.json")
