#!/usr/bin/env bash
# Capacity per node (bench/README.md, "Capacity per node"): builds bench/http, starts the capacity application
# in a JVM of its own, steps live sessions up (one SSE tab each, a click every 5 s) and prints, per step,
# click-to-update latency, errors, heap per session, CPU of server and client, threads and file descriptors.
# Extra key=value arguments go to CapacityRun, e.g.  bench/capacity.sh steps=1000,5000,10000 measure=60s
# selectors=K runs the load client on K selector threads (default 1).
# cpus=S/C runs the server on CPUs S and the client on CPUs C (taskset lists, e.g. cpus=0/1).
# Writes bench/http/target/capacity/{capacity.md,capacity.svg,server.log}.
set -euo pipefail
cd "$(dirname "$0")/.."
JAVA=${JAVA:-java}
CP_FILE=bench/http/target/capacity-classpath.txt
if [ -z "${SKIP_BUILD:-}" ]; then
  # In one reactor run, so the project's modules resolve to this checkout (every module writes the file; bench/http is last).
  mvn -B -ntp -q compile dependency:build-classpath -pl bench/http -am -Dmdep.includeScope=runtime \
    -Dmdep.outputFile="$PWD/$CP_FILE.deps"
  # The project's own modules from this checkout's classes, not from ~/.m2.
  OWN=$(for m in core spring autoconfigure bench/scenarios bench/http; do printf '%s:' "$PWD/$m/target/classes"; done)
  echo "$OWN$(tr ':' '\n' < "$CP_FILE.deps" | grep -v '/dev/synccontext/' | paste -sd:)" > "$CP_FILE"
fi
echo "uptime: $(uptime)"
exec "$JAVA" -cp "$(cat "$CP_FILE")" dev.synccontext.bench.capacity.load.CapacityRun "$@"
