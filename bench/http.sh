#!/usr/bin/env bash
# The macro benchmark: wrk against a plain Spring Boot app on the starter (bench/http), over loopback.
# A per-session counter is incremented (a) through the session's injected RendererSyncContext,
# (b) by an @OnContext handler on a @ContextScoped counter ("annotated"), (c) synchronized on the session
# mutex, (d) with no serialization; each at 64 connections over 256
# sessions (bench/http-sessions.lua gives every request one of the sessions' cookies). Prints wrk's
# output per run and a table of requests/s and p99 latency, then the app's audit (requests served vs
# increments kept, per way).
#
#   bench/http.sh                 # every way warmed 30 s, then 2 rounds × (a, b, c), 10 s warm-up + 20 s measured each: ~6 minutes
#   ROUNDS=3 DURATION=30s bench/http.sh
#
# Needs wrk (Debian: apt-get install wrk). Environment: JAVA (default java on PATH), SKIP_BUILD=1 to
# reuse bench/http/target/synccontext-bench-http.jar, JAVA_OPTS for the app's JVM (default: none),
# CONNECTIONS (64), SESSIONS (256), THREADS (wrk threads, 2), WARMUP_ALL (30s: each way, once, before round 1),
# WARMUP (10s), DURATION (20s), ROUNDS (2). Each round starts with the next way (round 1: a, b, c, d; round 2:
# b, c, d, a; ...), so that no way is always the one measured first.
set -euo pipefail
cd "$(dirname "$0")/.."
CONNECTIONS="${CONNECTIONS:-64}"
THREADS="${THREADS:-2}"
WARMUP_ALL="${WARMUP_ALL:-30s}"
WARMUP="${WARMUP:-10s}"
DURATION="${DURATION:-20s}"
ROUNDS="${ROUNDS:-2}"
WAYS=(context annotated synchronized unserialized)

source bench/http-app.sh

"$JAVA" -version 2>&1 | head -1
echo "wrk -t$THREADS -c$CONNECTIONS over $(wc -l <"$SESSIONS_FILE") sessions; each way warmed $WARMUP_ALL first; then warm-up $WARMUP, measured $DURATION per run; app JVM flags: ${JAVA_OPTS:-none}"
results="$work/results.tsv"
# The whole app is cold at first (Tomcat, Spring MVC, the three handlers), and on this 2-core machine it
# reached its steady rate only after about 40 s of load (any way): warm every way 30 s before round 1, so
# that round 1 does not measure the JIT for whichever way comes first (10 s each was not enough: round 1's
# first way ran at half speed).
for way in "${WAYS[@]}"; do
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"$WARMUP_ALL" -s bench/http-sessions.lua "$base/counter/$way" >/dev/null
done
for round in $(seq 1 "$ROUNDS"); do
  first=$(( (round - 1) % ${#WAYS[@]} ))
  for way in "${WAYS[@]:first}" "${WAYS[@]:0:first}"; do
    wrk -t"$THREADS" -c"$CONNECTIONS" -d"$WARMUP" -s bench/http-sessions.lua "$base/counter/$way" >/dev/null
    echo "== round $round: $way"
    wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -s bench/http-sessions.lua "$base/counter/$way" \
      | tee "$work/wrk.out"
    if grep -q "Non-2xx" "$work/wrk.out"; then
      echo "$way answered errors; see above" >&2
      exit 1
    fi
    rps="$(awk '/^Requests\/sec:/ {print $2}' "$work/wrk.out")"
    p99="$(awk '$1 == "99%" {print $2}' "$work/wrk.out")"
    printf '%s\t%s\t%s\t%s\n' "$round" "$way" "$rps" "$p99" >>"$results"
  done
done

echo
echo "| round | way | requests/s | p99 |"
echo "|---:|---|---:|---:|"
awk -F'\t' '{printf "| %s | %s | %s | %s |\n", $1, $2, $3, $4}' "$results"
echo
echo "audit (requests served, increments kept): $(curl -fsS "$base/counter/audit")"
