#!/usr/bin/env bash
# The steadier comparison of two ways of bench/http.sh: short runs that alternate (A B A B ...), each A
# run set against the mean of the B runs just before and after it, so that the drift of a shared VM's
# speed over minutes (10-25 % here) cancels; prints every round and the median ratio of the steady rounds.
#
#   bench/http-alternate.sh                         # context vs synchronized, 14 rounds of 10 s each: ~6 minutes
#   ROUNDS=20 A=context B=unserialized bench/http-alternate.sh
#
# Environment as bench/http.sh: JAVA, SKIP_BUILD, JAVA_OPTS, CONNECTIONS, SESSIONS, THREADS; A (context), B
# (synchronized), ROUNDS (14), RUN (10s per run), SKIP (3: rounds left out as the app warms up).
set -euo pipefail
cd "$(dirname "$0")/.."
CONNECTIONS="${CONNECTIONS:-64}"
THREADS="${THREADS:-2}"
A="${A:-context}"
B="${B:-synchronized}"
ROUNDS="${ROUNDS:-14}"
RUN="${RUN:-10s}"
SKIP="${SKIP:-3}"

source bench/http-app.sh

echo "$A against $B: $ROUNDS rounds of $RUN each, wrk -t$THREADS -c$CONNECTIONS over $SESSIONS sessions; app JVM flags: ${JAVA_OPTS:-none}"
for round in $(seq 1 "$ROUNDS"); do
  line="$round"
  for way in "$A" "$B"; do
    wrk -t"$THREADS" -c"$CONNECTIONS" -d"$RUN" --latency -s bench/http-sessions.lua "$base/counter/$way" >"$work/wrk.out"
    grep -q "Non-2xx" "$work/wrk.out" && { cat "$work/wrk.out" >&2; echo "$way answered errors" >&2; exit 1; }
    line="$line $(awk '/^Requests\/sec:/ {print $2}' "$work/wrk.out") $(awk '$1 == "99%" {print $2}' "$work/wrk.out")"
  done
  echo "$line" | tee -a "$work/rounds.txt"
done
python3 - "$work/rounds.txt" "$A" "$B" "$SKIP" <<'PY'
import statistics, sys
path, a, b, skip = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
def ms(text):  # wrk prints 812.00us, 8.12ms or 1.02s
    for unit, factor in (("us", 0.001), ("ms", 1.0), ("s", 1000.0)):
        if text.endswith(unit):
            return float(text[: -len(unit)]) * factor
    raise ValueError(text)
rows = [line.split() for line in open(path)]
ra, pa = [float(r[1]) for r in rows], [ms(r[2]) for r in rows]
rb, pb = [float(r[3]) for r in rows], [ms(r[4]) for r in rows]
steady = range(max(skip, 1), len(rows))
if not steady:
    sys.exit("not enough rounds after the warm-up ones")
rps = [ra[i] / ((rb[i - 1] + rb[i]) / 2) for i in steady]
p99 = [pa[i] / ((pb[i - 1] + pb[i]) / 2) for i in steady]
print(f"| rounds | {a} / {b} requests/s, median (min-max) | {a} / {b} p99, median |")
print("|---:|---:|---:|")
print(f"| {len(rps)} | {statistics.median(rps):.3f} ({min(rps):.3f}-{max(rps):.3f}) | {statistics.median(p99):.3f} |")
PY
