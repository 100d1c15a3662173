# Sourced by bench/http.sh, bench/http-alternate.sh and bench/http-profile.sh (not run on its own): builds
# the bench/http app unless SKIP_BUILD=1, starts it on a free loopback port with no JVM flags but
# JAVA_OPTS, waits until it answers, and creates SESSIONS sessions for bench/http-sessions.lua.
# Sets: JAVA, work (a temporary directory, removed at exit), app (the app's pid), base (its URL),
# SESSIONS_FILE (exported). The app is stopped when the sourcing script exits.

JAVA="${JAVA:-java}"
SESSIONS="${SESSIONS:-256}"

command -v wrk >/dev/null || { echo "wrk is not installed (Debian: apt-get install wrk)" >&2; exit 2; }
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  rm -f bench/http/target/synccontext-bench-http.jar # repackage skips a jar it thinks current, with stale libraries
  mvn -B -ntp -q -DskipTests package -pl bench/http -am
fi

work="$(mktemp -d)"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
base="http://127.0.0.1:$port"
# shellcheck disable=SC2086
"$JAVA" ${JAVA_OPTS:-} -jar bench/http/target/synccontext-bench-http.jar --server.port="$port" \
  --server.address=127.0.0.1 >"$work/app.log" 2>&1 &
app=$!
stop_app() {
  kill "$app" 2>/dev/null && wait "$app" 2>/dev/null || true
  rm -rf "$work"
}
trap stop_app EXIT

for _ in $(seq 1 120); do
  curl -fsS "$base/actuator/health" >/dev/null 2>&1 && break
  kill -0 "$app" 2>/dev/null || { cat "$work/app.log" >&2; echo "the app did not start" >&2; exit 1; }
  sleep 0.5 # polling a starting server: nothing else to wait on
done
curl -fsS "$base/actuator/health" >/dev/null || { echo "the app did not answer on $base" >&2; exit 1; }

for _ in $(seq 1 "$SESSIONS"); do
  curl -fsS -X POST "$base/counter/session"
  echo
done >"$work/sessions.txt"
export SESSIONS_FILE="$work/sessions.txt"
