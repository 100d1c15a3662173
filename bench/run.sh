#!/usr/bin/env bash
# Builds the bench and runs the whole scenario table with JMH -prof gc, then prints it in the reference
# table's format (docs/DESIGN.md) (µs per invocation, KB allocated) and per operation (ns/op, B/op).
#
#   bench/run.sh quick   # 1 fork, 2×1 s warm-up, 3×1 s measurement: about 6 minutes on 2 cores
#   bench/run.sh full    # 2 forks, 3×1 s warm-up, 5×1 s measurement (~14 min): what README's tables come from
#   bench/run.sh quick 'SeedBenchmarks.InvokeAsync.*' -p mode=optimized   # any extra JMH arguments
#
# Configurations (CONFIG=...):
#   default       no JVM flags at all: what an application gets (README's headline table)
#   parallelism2  every fork also gets -Djava.util.concurrent.ForkJoinPool.common.parallelism=2 (the
#                 second, labelled table: on 2 CPUs the common pool otherwise has one worker)
#
# Environment: JAVA (default: java on PATH), SKIP_BUILD=1 to reuse bench/jmh/target/benchmarks.jar.
# Also draws the results as bench/jmh/target/jmh-<variant>[-<config>].svg (bench/chart.py; docs/bench-chart.svg is one).
set -euo pipefail
cd "$(dirname "$0")/.."
variant="${1:-quick}"
shift || true
include="${1:-.*Benchmarks.*}"
shift || true
JAVA="${JAVA:-java}"

case "$variant" in
  quick) opts=(-f 1 -wi 2 -w 1s -i 3 -r 1s) ;;
  full)  opts=(-f 2 -wi 3 -w 1s -i 5 -r 1s) ;;
  *) echo "usage: bench/run.sh [quick|full] [benchmark regex] [extra JMH args...]" >&2; exit 2 ;;
esac

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  mvn -B -ntp -q -DskipTests package -pl bench/jmh -am
fi

config="${CONFIG:-default}"
case "$config" in
  default)      flags=(); name="jmh-$variant" ;;
  parallelism2) flags=(-Djava.util.concurrent.ForkJoinPool.common.parallelism=2); name="jmh-$variant-parallelism2"
                opts+=(-jvmArgsAppend "${flags[*]}") ;;
  *) echo "CONFIG must be default or parallelism2, was '$config'" >&2; exit 2 ;;
esac

out="bench/jmh/target/$name.json"
echo "configuration: $config (JVM flags: ${flags[*]:-none})"
"$JAVA" -jar bench/jmh/target/benchmarks.jar "$include" "${opts[@]}" -prof gc -rf json -rff "$out" "$@" \
  | tee "bench/jmh/target/$name.log"
echo
"$JAVA" -version 2>&1 | head -1
echo "configuration: $config (JVM flags: ${flags[*]:-none})"
python3 bench/format_table.py "$out"
echo
echo "README's comparison table (ours against the best hand-off peer and lock-inline in this run):"
python3 bench/format_peers.py "$out"
echo
"$JAVA" "${flags[@]}" -cp bench/jmh/target/benchmarks.jar dev.synccontext.bench.IdleFootprintReport 10000
echo
python3 bench/chart.py "$out" "bench/jmh/target/$name.svg"
