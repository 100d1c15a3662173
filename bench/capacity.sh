#!/usr/bin/env bash
# Capacity per node (bench/README.md, "Capacity per node"): builds bench/http, starts the capacity application
# in a JVM of its own, steps live sessions up (one SSE tab each, a click every 5 s) and prints, per step,
# click-to-update latency, errors, heap per session, CPU of server and client, threads and file descriptors.
# Extra key=value arguments go to CapacityRun, e.g.  bench/capacity.sh steps=1000,5000,10000 measure=60s
# Writes bench/http/target/capacity/{capacity.md,capacity.svg,server.log}.
set -euo pipefail
cd "$(dirname "$0")/.."
JAVA=${JAVA:-java}
if [ -z "${SKIP_BUILD:-}" ]; then
  mvn -B -ntp -q package -DskipTests -pl bench/http -am
fi
echo "uptime: $(uptime)"
exec "$JAVA" -cp bench/http/target/synccontext-bench-http.jar \
  -Dloader.main=dev.synccontext.bench.capacity.load.CapacityRun \
  org.springframework.boot.loader.launch.PropertiesLauncher "$@"
