#!/usr/bin/env bash
# The project's one test command (README: "Run the tests"). CI's .ci/run calls exactly this.
# It installs what the tests need on a fresh machine, runs the whole build on the default JDK (17),
# then core, autoconfigure and starter again on Java 25 (where the virtual-thread executor tests run).
set -euo pipefail
cd "$(dirname "$0")"

MVN=(mvn -B -ntp)

echo "== mvn verify (default JDK: $(java -version 2>&1 | head -1))"
"${MVN[@]}" verify

JAVA25_HOME="${JAVA25_HOME:-$(ls -d /usr/lib/jvm/temurin-25* 2>/dev/null | head -1 || true)}"
if [[ -z "${JAVA25_HOME}" || ! -x "${JAVA25_HOME}/bin/java" ]]; then
  echo "Java 25 not found under /usr/lib/jvm/temurin-25*; set JAVA25_HOME to a JDK 25 to run the core tests on it" >&2
  exit 1
fi
echo "== core, auto-configuration and starter tests on Java 25 (${JAVA25_HOME}); virtual-thread tests run only here"
JAVA_HOME="${JAVA25_HOME}" "${MVN[@]}" verify -pl core,autoconfigure,starter -am
