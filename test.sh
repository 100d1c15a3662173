#!/usr/bin/env bash
# The project's one test command (README: "Run the tests"). CI's .ci/run calls exactly this.
# It installs what the tests need on a fresh machine (Chromium for the sample's browser test, Prometheus for
# the Grafana dashboard test, redis-server and nginx for cluster-it), runs the whole build on the default JDK
# (17), checks that core's jar rebuilds byte for byte, then core, autoconfigure, the test kit, starter and reactor again
# on Java 25 (where the virtual-thread tests run, reactor's block() deadlock shapes among them).
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

# The model checks (core's dev.synccontext.lincheck) run their full budget here; a bare `mvn verify`
# runs them light, for the inner loop (ModelChecker says what each budget explores).
echo "== mvn verify (default JDK: $(java -version 2>&1 | head -1)), full model checks"
"${MVN[@]}" verify -Dsynccontext.modelcheck=full

# Reproducible build: the core jar built again from the same sources must be byte-identical
# (project.build.outputTimestamp in the root POM fixes every entry's time).
core_jar="$(ls core/target/synccontext-core-*.jar | grep -v -e '-sources\.jar$' -e '-javadoc\.jar$' -e '-tests\.jar$')"
first_build="$(mktemp -d)"
cp "${core_jar}" "${first_build}/"
echo "== reproducible build: rebuilding ${core_jar} and comparing it byte for byte"
"${MVN[@]}" -q -pl core clean package -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true
if ! cmp "${first_build}/$(basename "${core_jar}")" "${core_jar}"; then
  echo "FAILED: two builds of ${core_jar} differ (is project.build.outputTimestamp set?)" >&2
  exit 1
fi
rm -rf "${first_build}"
echo "reproducible: two builds of ${core_jar} are byte-identical"

# The Java 25 leg: core, auto-configuration, test kit, starter and reactor again on JDK 25 (the virtual-thread executor
# tests run only there). JAVA25_HOME wins; otherwise the first JDK 25 under /usr/lib/jvm. Required
# under CI=true; elsewhere a missing JDK 25 skips the leg and says so.
find_java25() {
  local candidate version
  for candidate in /usr/lib/jvm/*; do
    [[ -x "${candidate}/bin/java" ]] || continue
    version="$("${candidate}/bin/java" -version 2>&1 || true)"
    if [[ "${version}" == *'version "25'* ]]; then
      echo "${candidate}"
      return
    fi
  done
}
JAVA25_HOME="${JAVA25_HOME:-$(find_java25)}"
if [[ -n "${JAVA25_HOME}" && -x "${JAVA25_HOME}/bin/java" ]]; then
  echo "== core, auto-configuration, test kit, starter and reactor tests on Java 25 (${JAVA25_HOME}); virtual-thread tests run only here"
  JAVA_HOME="${JAVA25_HOME}" "${MVN[@]}" verify -pl core,autoconfigure,test,starter,reactor -am
elif [[ "${CI:-}" == "true" ]]; then
  echo "FAILED: CI=true requires the Java 25 leg, and no JDK 25 was found (JAVA25_HOME is unset and no" \
    "/usr/lib/jvm/*/bin/java reports version 25). Install one or set JAVA25_HOME." >&2
  exit 1
else
  echo "SKIPPED: the Java 25 leg (core, autoconfigure, test kit and starter tests on JDK 25, including every" \
    "virtual-thread executor test): no JDK 25 found. Set JAVA25_HOME or install one under /usr/lib/jvm." >&2
fi
