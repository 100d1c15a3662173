#!/usr/bin/env bash
# The project's one test command (README: "Run the tests"). CI's .ci/run calls exactly this.
# It installs what the tests need on a fresh machine (Chromium for the sample's browser test, Prometheus for
# the Grafana dashboard test), runs the whole build on the default JDK (17), then core, autoconfigure and
# starter again on Java 25 (where the virtual-thread executor tests run).
set -euo pipefail
cd "$(dirname "$0")"

MVN=(mvn -B -ntp)

# The sample's browser test drives Debian's headless Chromium through Debian's chromedriver (local
# binaries only; nothing is downloaded at test time). Install them once; a no-op when present.
if [[ ! -x /usr/bin/chromium || ! -x /usr/bin/chromedriver ]]; then
  if [[ "$(id -u)" -eq 0 ]]; then
    echo "== installing chromium and chromium-driver (the sample's browser test needs them)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq chromium chromium-driver >/dev/null
  else
    echo "WARNING: /usr/bin/chromium or /usr/bin/chromedriver is missing and this is not root:" \
      "the sample's browser test will fail. Install them: sudo apt-get install -y chromium chromium-driver" >&2
  fi
fi

# The Grafana dashboard test (sample's GrafanaDashboardTest) runs a real Prometheus: Debian's package.
# The test starts its own prometheus process (own config, storage and free port on 127.0.0.1), so a
# system service that the package may start on install does not matter to it.
if ! command -v prometheus >/dev/null 2>&1; then
  if [[ "$(id -u)" -eq 0 ]]; then
    echo "== installing prometheus (the Grafana dashboard test needs it)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends prometheus >/dev/null
  else
    echo "WARNING: prometheus is missing and this is not root: the Grafana dashboard test will fail." \
      "Install it: sudo apt-get install -y --no-install-recommends prometheus" >&2
  fi
fi

# The cluster tests (cluster-it) run two application nodes against Debian's redis-server, behind Debian's
# nginx. Each test starts its own redis-server and nginx (own config, temp directory, free port on
# 127.0.0.1) and stops them; services the packages may start on install do not matter to them.
if [[ ! -x /usr/bin/redis-server || ! -x /usr/sbin/nginx ]]; then
  if [[ "$(id -u)" -eq 0 ]]; then
    echo "== installing redis-server and nginx (the cluster tests need them)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends redis-server nginx >/dev/null
  else
    echo "WARNING: /usr/bin/redis-server or /usr/sbin/nginx is missing and this is not root: the cluster" \
      "tests will fail. Install them: sudo apt-get install -y --no-install-recommends redis-server nginx" >&2
  fi
fi

echo "== mvn verify (default JDK: $(java -version 2>&1 | head -1))"
"${MVN[@]}" verify

JAVA25_HOME="${JAVA25_HOME:-$(ls -d /usr/lib/jvm/temurin-25* 2>/dev/null | head -1 || true)}"
if [[ -z "${JAVA25_HOME}" || ! -x "${JAVA25_HOME}/bin/java" ]]; then
  echo "Java 25 not found under /usr/lib/jvm/temurin-25*; set JAVA25_HOME to a JDK 25 to run the core tests on it" >&2
  exit 1
fi
echo "== core, auto-configuration and starter tests on Java 25 (${JAVA25_HOME}); virtual-thread tests run only here"
JAVA_HOME="${JAVA25_HOME}" "${MVN[@]}" verify -pl core,autoconfigure,starter -am
