#!/usr/bin/env bash
# The project's one test command (README: "Run the tests"). CI's .ci/run calls exactly this.
# It runs every test once on the default JDK (17) and prints each stage's wall time: the whole build with the
# fast tier, the check that core's jar rebuilds byte for byte, the packages the heavy tiers need (Chromium for the
# sample's browser test, Prometheus for the Grafana dashboard test, redis-server and nginx for cluster-it and the
# Redis state store tests), then lanes side by side: the heavy tiers (README, "Test tiers") and the model checks
# at their full budget, what differs by Boot line on Boot 4.1, what differs by JDK on Java 25 (core, reactor, the
# test kit, the auto-configuration's context-runner tests, where the virtual-thread tests run). Last, no JVM of
# the build may be left running.
set -euo pipefail
cd "$(dirname "$0")"
repo="$(pwd -P)"

# Kotlin's incremental compilation leaves the Kotlin classes untouched when their sources did not change:
# without it every stage after the first recompiles the Kotlin module, and its fresh class files make
# every module downstream of it compile again.
MVN=(mvn -B -ntp -Dkotlin.compiler.incremental=true)
# Maven's own JVM runs C1 only (.mvn/jvm.config: -XX:TieredStopAtLevel=1). It compiles in-process (javac with
# Error Prone, kotlinc): a clean compile of core, spring and kotlin took 36 s of CPU instead of 72 s, the whole
# build without tests 164 s instead of 226 s (docs/2026-12-02-ci-time.md). The fast tier's forked test JVMs run
# C1 only too, with the serial collector (root POM, surefire.jit.args: about half the CPU, docs/2026-12-03-ci-cpu.md);
# the heavy tiers' keep the default JIT.
HEAVY_TIERS=(process scale system cluster)
# The fast stage leaves out the model checks too: they run once, at the full budget, in their own stage.
FAST_STAGE_EXCLUDES="$(IFS=,; echo "${HEAVY_TIERS[*]}"),modelcheck"

# A stage prints its wall time when it ends, and when it fails (from the EXIT trap).
stage_name=""
stage_start=0
stage_report=()
begin_stage() {
  stage_name="$1"
  stage_start=${SECONDS}
  echo "== stage ${stage_name}: $2"
}
end_stage() {
  local took=$((SECONDS - stage_start))
  echo "== stage ${stage_name}: ${took} s"
  stage_report+=("${stage_name}: ${took} s")
  stage_name=""
}
# A lane still running when the script ends early (a failure, an interrupt) is stopped: Maven first, whose
# forked test JVMs exit when it is gone.
declare -A lane_of_pid=()
on_exit() {
  if [[ -n "${stage_name}" ]]; then
    echo "== stage ${stage_name}: $((SECONDS - stage_start)) s (FAILED)" >&2
  fi
  local pid
  for pid in "${!lane_of_pid[@]}"; do
    pkill -TERM -P "${pid}" 2>/dev/null || true
    kill "${pid}" 2>/dev/null || true
  done
}
trap on_exit EXIT

# Kotlin compile daemons running before the build are not the build's (another build may share the machine).
daemons_before=" $(pgrep -f KotlinCompileDaemon | tr '\n' ' ' || true) "

# `install`, not `verify`: the later stages build only the modules they test (-pl without -am) and take the
# others from the local Maven repository, as built here from these sources. Walking the whole build again per
# stage would re-run every module's plugins (aot-it's ahead-of-time processing starts its application) for
# modules with nothing to test.
# Two modules at a time (-T 2) and two test JVMs per module (forkCount=2): one compiler thread and one test JVM
# leave the second core mostly idle (autoconfigure's fast tier: 175 s of CPU in about 250 s wall,
# docs/2026-12-02-ci-time.md).
begin_stage fast "the whole build on the default JDK ($(java -version 2>&1 | head -1)), fast tier, installed"
"${MVN[@]}" -T 2 install -DexcludedGroups="${FAST_STAGE_EXCLUDES}" -DforkCount=2
end_stage

# Reproducible build: the core jar built again from the same sources must be byte-identical
# (project.build.outputTimestamp in the root POM fixes every entry's time).
begin_stage reproducible "core's jar rebuilt and compared byte for byte"
core_jar="$(ls core/target/synccontext-core-*.jar | grep -v -e '-sources\.jar$' -e '-javadoc\.jar$' -e '-tests\.jar$')"
first_build="$(mktemp -d)"
cp "${core_jar}" "${first_build}/"
"${MVN[@]}" -q -pl core clean package -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true
if ! cmp "${first_build}/$(basename "${core_jar}")" "${core_jar}"; then
  echo "FAILED: two builds of ${core_jar} differ (is project.build.outputTimestamp set?)" >&2
  exit 1
fi
rm -rf "${first_build}"
echo "reproducible: two builds of ${core_jar} are byte-identical"
end_stage

# The heavy tiers drive local binaries only; nothing is downloaded at test time. Each test starts its own
# process (own config, temp directory, free port on 127.0.0.1) and stops it, so services the packages may
# start on install do not matter to them. Installed once; a no-op when present.
install_packages() { # what-needs-them apt-get-install-arguments...
  local needed_by="$1"
  shift
  if [[ "$(id -u)" -eq 0 ]]; then
    echo "installing $* (${needed_by} needs them)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "$@" >/dev/null
  else
    echo "WARNING: this is not root and a package is missing: ${needed_by} will fail." \
      "Install it: sudo apt-get install -y $*" >&2
  fi
}
begin_stage install "what the heavy tiers run: Chromium, Prometheus, redis-server, nginx"
# The sample's browser test drives Debian's headless Chromium through Debian's chromedriver.
if [[ ! -x /usr/bin/chromium || ! -x /usr/bin/chromedriver ]]; then
  install_packages "the sample's browser test" chromium chromium-driver
fi
# The Grafana dashboard test (sample's GrafanaDashboardTest) runs a real Prometheus, and AlertRulesTest the
# package's promtool (check rules, test rules on grafana/alerts.yml).
if ! command -v prometheus >/dev/null 2>&1 || ! command -v promtool >/dev/null 2>&1; then
  install_packages "the Grafana dashboard test" --no-install-recommends prometheus
fi
# The cluster tests (cluster-it) run two application nodes against redis-server, behind nginx; the Redis state
# store tests, the sample on Redis and core's launcher test run their own redis-server (core's test-jar starts it).
if [[ ! -x /usr/bin/redis-server || ! -x /usr/sbin/nginx ]]; then
  install_packages "the cluster and Redis state store tests" --no-install-recommends redis-server nginx
fi
end_stage

# Everything after the fast stage runs in lanes, side by side: each heavy tier in the modules that have its
# tests (one lane per module with long ones, the others together), the model checks at their full budget, what
# differs on Boot 4.1 and on Java 25. On 2 cores the fast stage keeps both busy; one lane does not (a test waits
# on its sockets, child processes and timers), so up to CI_LANES of them run at once, the longest first. Two,
# not three: three kept the load at 13-20 and the cluster tests' node JVMs stalled past their leases, and took longer
# (docs/2026-12-03-ci-lanes.md). Two lanes never build or test the same module in the same directory: the
# Boot 4.1 and Java 25 legs run in copies of the sources. Each lane writes its log to target/ci-lanes/; a
# failed lane's log is printed whole at the end, after the others finished.
CI_LANES="${CI_LANES:-2}"
lanes_root="$(mktemp -d)"
lane_logs="${repo}/target/ci-lanes"
rm -rf "${lane_logs}"
mkdir -p "${lane_logs}"

# The heavy tiers the given modules have tests of, as a JUnit tag expression ('process | scale'); empty if none.
HEAVY_TAGS=("${HEAVY_TIERS[@]}" modelcheck)
tiers_of_modules() {
  local tier found=()
  for tier in "${HEAVY_TAGS[@]}"; do
    if grep -rqE "@Tag\(\"${tier}\"\)" --include='*.java' --include='*.kt' "${@/%//src/test}" 2>/dev/null; then
      found+=("${tier}")
    fi
  done
  local IFS='|'
  echo "${found[*]}" | sed 's/|/ | /g'
}

# One lane per module whose heavy tests run for minutes; the rest of the modules with heavy tests share one.
OWN_LANE_MODULES=(cluster-it sample autoconfigure core)
heavy_modules=()
for module in */ bench/*/; do
  module="${module%/}"
  [[ -d "${module}/src/test" && -n "$(tiers_of_modules "${module}")" ]] && heavy_modules+=("${module}")
done

heavy_lane() { # modules...: their heavy tiers, on Java 17, in this checkout
  local expression
  expression="$(tiers_of_modules "$@")"
  echo "modules $*: tiers ${expression}"
  "${MVN[@]}" test -pl "$(IFS=,; echo "$*")" -Dsynccontext.tier="${expression}" -Dsynccontext.modelcheck=full
}

# The Spring library, the auto-configuration, the test kit and the starter against the other Boot line we support
# (README, "Compatibility"): what differs by Boot line. All four modules and their tests compile on Boot 4.1.2's
# BOM, and the tests that exercise Boot itself run: the auto-configuration's context-runner tests (conditions,
# back-off, properties binding), the slice tests (@WebMvcTest, @WebFluxTest, the kit's @AutoConfigureSyncContextTest)
# and the starter's whole application. The other tests (the HTTP, STOMP and live tests on a real server, the
# library's own) drive our code through Spring Framework's and the servers' public API, whose lines 4.1.2 keeps
# (Framework 7.0.8 -> 7.0.10, Tomcat 11.0.22 -> 11.0.27, Jetty and Reactor Netty patch releases; Micrometer
# 1.16 -> 1.17 is met by the metrics and observation auto-configuration tests): they run on 4.0 in the fast stage. -Dspring-boot.version on the command line is what switches the BOM; the root POM's Boot
# 4.0.x pins (Netty, Reactor Netty) stay out of this build (profile boot-line-given); core and the scenarios, which
# use no Spring, come from the fast stage's install.
# Netty stays at 4.2.18 here: Boot 4.1.2's 4.2.19 needs native QUIC classifier jars (netty-codec-native-quic
# linux-x86_64 and others, pulled in through Reactor Netty) that Maven Central did not serve to this machine
# ("Could not find artifact"); an application on 4.1.x that resolves them keeps Boot's 4.2.19.
boot_line_tests() { # the test classes of the four Spring modules that run Boot's auto-configuration or a slice
  grep -rlE 'ContextRunner|@WebMvcTest|@WebFluxTest|@AutoConfigureSyncContextTest' \
    spring/src/test autoconfigure/src/test test/src/test starter/src/test \
    | grep -E 'Test\.(java|kt)$' | sed -E 's#.*/##; s#[.](java|kt)$##' | sort -u | paste -sd, -
}
# In a copy of the sources without build output: here the compiler plugin would take the classes the fast stage
# compiled against 4.0 as up to date (unchanged sources, older jars), and 4.1-built classes left in the modules'
# target/ would be what the next build's install uses. The Spring library has no test of this kind: it is
# compiled only.
boot41_lane() {
  cd "${lanes_root}/boot41"
  "${MVN[@]}" test -Dspring-boot.version=4.1.2 -Dnetty-pin.version=4.2.18.Final \
    -pl spring,autoconfigure,test,starter -Dsurefire.failIfNoTests=false -Dsurefire.failIfNoSpecifiedTests=false \
    -Dtest="$(boot_line_tests),StarterOnlyApplicationTest,StarterExposesNothingByItselfTest"
}

# The Java 25 leg: what differs by JDK, again on JDK 25 — the fast tier of core, reactor and the test kit, the
# auto-configuration's context-runner tests (the virtual-thread executor tests run only there; they are the
# *AutoConfiguration*Test classes) and the starter's class-loader test. The rest of the Spring modules is plain
# Spring on top of those and runs on 17 and on Boot 4.1. JAVA25_HOME wins; otherwise the first
# JDK 25 under /usr/lib/jvm. Required under CI=true; elsewhere a missing JDK 25 skips the leg and says so.
# In a copy of the sources without build output, compiled again on 25: the Java 17 lanes test core and the kit
# meanwhile, and Kotlin's incremental caches name the checkout's paths (in a copy with the build output, Kotlin
# compiled the tests again beside their old classes and found every declaration twice).
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
java25_lane() {
  cd "${lanes_root}/java25"
  JAVA_HOME="${JAVA25_HOME}" "${MVN[@]}" verify -pl core,reactor,test -Dmaven.javadoc.skip=true &&
    JAVA_HOME="${JAVA25_HOME}" "${MVN[@]}" test -pl autoconfigure,starter -Dsurefire.failIfNoSpecifiedTests=false \
    -Dtest='**/*AutoConfiguration*Test,**/*ConditionsTest,RestartLeavesNoLoaderBehindTest'
}
JAVA25_HOME="${JAVA25_HOME:-$(find_java25)}"
if [[ -z "${JAVA25_HOME}" || ! -x "${JAVA25_HOME}/bin/java" ]]; then
  if [[ "${CI:-}" == "true" ]]; then
    echo "FAILED: CI=true requires the Java 25 leg, and no JDK 25 was found (JAVA25_HOME is unset and no" \
      "/usr/lib/jvm/*/bin/java reports version 25). Install one or set JAVA25_HOME." >&2
    exit 1
  fi
  echo "SKIPPED: the Java 25 leg (the fast tier of core, reactor, the test kit, the auto-configuration runner tests on" \
    "JDK 25, including every virtual-thread executor test): no JDK 25 found. Set JAVA25_HOME or install one" \
    "under /usr/lib/jvm." >&2
  JAVA25_HOME=""
fi

# The lanes, longest first: name, then the command (a function above) and its arguments.
lanes=()
lane_commands=()
add_lane() {
  lanes+=("$1")
  shift
  lane_commands+=("$*")
}
others=()
for module in "${OWN_LANE_MODULES[@]}"; do
  [[ " ${heavy_modules[*]} " == *" ${module} "* ]] && add_lane "${module}" heavy_lane "${module}"
done
for heavy in "${heavy_modules[@]}"; do
  [[ " ${OWN_LANE_MODULES[*]} " == *" ${heavy} "* ]] || others+=("${heavy}")
done
add_lane boot41 boot41_lane
[[ -n "${JAVA25_HOME}" ]] && add_lane java25 java25_lane
((${#others[@]} > 0)) && add_lane "$(IFS=+; echo "${others[*]}")" heavy_lane "${others[@]}"

begin_stage lanes "${#lanes[@]} lanes, up to ${CI_LANES} at once: ${lanes[*]}"
# The copies are taken before any lane writes to a target/ directory.
copy_sources() { # destination, then tar's --exclude options
  local destination="$1"
  shift
  mkdir -p "${destination}"
  tar -C "${repo}" --exclude=./.git "$@" -cf - . | tar -C "${destination}" -xf -
}
copy_sources "${lanes_root}/boot41" --exclude=target
[[ -n "${JAVA25_HOME}" ]] && copy_sources "${lanes_root}/java25" --exclude=target
declare -A lane_started=()
lane_failed=()
lane_report=()
finish_one_lane() {
  local pid status=0
  wait -n -p pid || status=$?
  local name="${lane_of_pid[${pid}]}"
  local took=$((SECONDS - lane_started[${name}]))
  unset "lane_of_pid[${pid}]"
  if ((status == 0)); then
    echo "== lane ${name}: passed in ${took} s"
    lane_report+=("lane ${name}: ${took} s")
  else
    echo "== lane ${name}: FAILED (exit ${status}) after ${took} s; its log follows the other lanes" >&2
    lane_report+=("lane ${name}: ${took} s (FAILED)")
    lane_failed+=("${name}")
  fi
}
for i in "${!lanes[@]}"; do
  while ((${#lane_of_pid[@]} >= CI_LANES)); do
    finish_one_lane
  done
  name="${lanes[${i}]}"
  log="${lane_logs}/${name//\//-}.log"
  echo "== lane ${name}: started (${lane_commands[${i}]}; log ${log})"
  lane_started[${name}]=${SECONDS}
  # shellcheck disable=SC2086 # the command is a function name and its arguments
  (cd "${repo}" && ${lane_commands[${i}]}) >"${log}" 2>&1 &
  lane_of_pid[$!]="${name}"
done
while ((${#lane_of_pid[@]} > 0)); do
  finish_one_lane
done
if ((${#lane_failed[@]} > 0)); then
  for name in "${lane_failed[@]}"; do
    echo "== the log of the failed lane ${name}:" >&2
    cat "${lane_logs}/${name//\//-}.log" >&2
  done
  # Only the end of a long output may be kept: each failed lane's failures once more, briefly, last. The logs
  # stay beside the copies of the sources, outside the checkout.
  for name in "${lane_failed[@]}"; do
    echo "== what failed in lane ${name}:" >&2
    grep -E 'Tests run:.*(FAILURE|ERROR)!|^\[ERROR\]   [A-Za-z]|Failed to execute goal|timed out|TimeoutException|Crashed' \
      "${lane_logs}/${name//\//-}.log" | cut -c1-300 | head -25 >&2 || true
    cp "${lane_logs}/${name//\//-}.log" "${lanes_root}/"
  done
  echo "FAILED: lanes ${lane_failed[*]} (their logs and copies of the sources, if any, stay in ${lanes_root})" >&2
  exit 1
fi
rm -rf "${lanes_root}"
end_stage

# No JVM of the build outlives it: a forked test JVM or a child JVM a test started (they run inside this
# repository or the Boot 4.1 stage's copy, or name it on their command line), or a Kotlin compile daemon
# (root POM: kotlin.compiler.daemon).
begin_stage leftovers "no JVM of the build is left running"
left=()
for pid in $(pgrep -x java || true); do
  cwd="$(readlink "/proc/${pid}/cwd" 2>/dev/null || true)"
  cmd="$(tr '\0' ' ' <"/proc/${pid}/cmdline" 2>/dev/null || true)"
  if [[ "${cwd}" == "${repo}" || "${cwd}" == "${repo}/"* || "${cmd}" == *"${repo}/"* ]] \
    || [[ "${cwd}" == "${lanes_root}"* || "${cmd}" == *"${lanes_root}/"* ]] \
    || [[ "${cmd}" == *KotlinCompileDaemon* && "${daemons_before}" != *" ${pid} "* ]]; then
    # A forked JVM's command line ends with what runs (main class or jar, arguments); its start is JVM flags.
    if [[ "${cmd}" == *KotlinCompileDaemon* ]]; then
      cmd="a Kotlin compile daemon (is kotlin.compiler.daemon=false in the root POM?)"
    elif ((${#cmd} > 200)); then
      cmd="...${cmd: -200}"
    fi
    left+=("${pid} (in ${cwd:-?}): ${cmd}")
  fi
done
if ((${#left[@]} > 0)); then
  echo "FAILED: ${#left[@]} JVM(s) of this build are still running:" >&2
  printf '  %s\n' "${left[@]}" >&2
  exit 1
fi
end_stage

echo "== all stages passed:"
printf '  %s\n' "${stage_report[@]}" "${lane_report[@]}"
echo "  total: ${SECONDS} s"
echo "== the slowest test classes (surefire reports; a module's last stage overwrote its earlier reports):"
bash .ci/slowest-tests 20
