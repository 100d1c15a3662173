#!/usr/bin/env bash
# The queued path's floor without the owner's slot claim (bench/README.md, "The owner's slot claim"):
# runs SeedBenchmarks.PostConcurrent and ProducersBenchmark at one producer, for the real context and for
# Netty's non-sticky executor, three times: as shipped; with core's own QueueChunk compiled here and put
# first on the class path (the control: what that mechanism alone changes, which should be nothing); and
# with a claim-free QueueChunk put first on the class path the same way. The claim-free QueueChunk is made
# here from core's own source (two lines changed: the owner reads its slot instead of exchanging it),
# compiled into bench/jmh/target/claim-free/ and never shipped: it breaks closeNow()'s exact hand-back on
# purpose (a slot can be both run by the owner and handed back). A summary table closes the run.
# Extra arguments go to JMH, e.g. bench/claim-free.sh -f 1 -wi 2 -i 3. Default: 3 forks.
# Environment: SKIP_BUILD=1 reuses bench/jmh/target/benchmarks.jar; MVN_FLAGS (e.g. -o) goes to the build.
set -euo pipefail
cd "$(dirname "$0")/.."
JAVA=${JAVA:-java}
JAVAC=${JAVAC:-javac}
if [ -z "${SKIP_BUILD:-}" ]; then
  # shellcheck disable=SC2086 # MVN_FLAGS is a list of flags, e.g. MVN_FLAGS=-o to build offline
  mvn -B -ntp -q ${MVN_FLAGS:-} package -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true -pl bench/jmh -am
fi
JAR=bench/jmh/target/benchmarks.jar
OUT=bench/jmh/target/claim-free
rm -rf "$OUT" && mkdir -p "$OUT/src"
SOURCE=core/src/main/java/dev/synccontext/QueueChunk.java
CLAIM='return SLOT.getAndSet(slots, offset, TAKEN);'
FREE='Object taken = SLOT.getAcquire(slots, offset); SLOT.setOpaque(slots, offset, TAKEN); return taken; \/\/ claim-free: no atomic exchange'
if [ "$(grep -cF "$CLAIM" "$SOURCE")" != 2 ]; then
  echo "QueueChunk no longer claims a slot with '$CLAIM' in two places; update this script to the new claim" >&2
  exit 1
fi
sed "s/$(printf '%s' "$CLAIM" | sed 's/[.]/\\./g')/$FREE/" "$SOURCE" > "$OUT/src/QueueChunk.java"
grep -c "claim-free" "$OUT/src/QueueChunk.java" | grep -qx 2
"$JAVAC" --release 17 -nowarn -cp "$JAR" -d "$OUT/classes" "$OUT/src/QueueChunk.java"
"$JAVAC" --release 17 -nowarn -cp "$JAR" -d "$OUT/control-classes" "$SOURCE"
ARGS=(-f 3 -wi 3 -w 1s -i 5 -r 1s -prof gc)
if [ $# -gt 0 ]; then ARGS=("$@"); fi
run() { # variant class-path
  echo "uptime: $(uptime)"
  "$JAVA" -cp "$2" org.openjdk.jmh.Main 'SeedBenchmarks.PostConcurrent' -p mode=optimized,netty-nonsticky "${ARGS[@]}" \
    -rf json -rff "$OUT/$1-post-concurrent.json" | tee "$OUT/$1-post-concurrent.log"
  "$JAVA" -cp "$2" org.openjdk.jmh.Main 'ProducersBenchmark' -p mode=optimized,netty-nonsticky -p producers=1 "${ARGS[@]}" \
    -rf json -rff "$OUT/$1-producers.json" | tee "$OUT/$1-producers.log"
}
echo "== as shipped (the owner claims each slot with an atomic exchange)"
run shipped "$JAR"
echo "== control: core's own QueueChunk compiled here, first on the class path (should match as shipped)"
run control "$OUT/control-classes:$JAR"
echo "== claim-free QueueChunk first on the class path (mode optimized is the claim-free variant here)"
run claim-free "$OUT/classes:$JAR"
echo "uptime: $(uptime)"
# One table: per benchmark and variant, ours and Netty's, with the ratio to Netty's in the same run.
python3 - "$OUT" <<'PY'
import json, sys
out = sys.argv[1]
print(f"{'benchmark':<30} {'variant':<11} {'mode':<16} {'ns/op':>9} {'± error':>9} {'B/op':>7} {'× netty':>8}")
for bench in ("post-concurrent", "producers"):
    for variant in ("shipped", "control", "claim-free"):
        rows = json.load(open(f"{out}/{variant}-{bench}.json"))
        netty = next(r["primaryMetric"]["score"] for r in rows if r["params"]["mode"] == "netty-nonsticky")
        for r in rows:
            m = r["primaryMetric"]
            alloc = r.get("secondaryMetrics", {}).get("gc.alloc.rate.norm", {}).get("score", float("nan"))
            name = r["benchmark"].rsplit(".", 2)[-2] + "." + r["benchmark"].rsplit(".", 1)[-1]
            error = float(m["scoreError"])  # NaN with fewer than two iterations in all
            print(f"{name:<30} {variant:<11} {r['params']['mode']:<16} {m['score']:>9.1f} {error:>9.1f} "
                  f"{alloc:>7.2f} {m['score'] / netty:>8.2f}")
PY
