# `perfgate run` isolates cases: a case that crashes (SIGSEGV) or hangs is recorded as that
# case's status (crashed / timeout, naming the signal or the limit), the run goes on to the next
# case, the run is partial, and the result document is written even when `run` itself is killed.
source "$(dirname "$0")/../lib.sh"
# AddressSanitizer turns a SIGSEGV into a report and exit 1; these checks need the signal itself.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0"
SUITES="$TEST_DATA/reliability/suites_isolation.toml"
run_suite() { "$PERFGATE" run --suites-file "$SUITES" --suite isolation --backend cpu --no-store "$@"; }

# check DOC FAULT_STATUS MESSAGE_REGEX: the fault case has that status, both neighbours are ok.
check() {
  python3 - "$@" <<'PY'
import json, re, sys
doc, want, message = sys.argv[1], sys.argv[2], sys.argv[3]
run = json.load(open(doc))["perfgate"]
by_family = {r["family"]: r for r in run["results"]}
assert run["run"]["status"] == "partial", run["run"]["status"]
fault = by_family["test_fault"]
assert fault["status"] == want, (fault["status"], fault["message"])
assert re.search(message, fault["message"]), fault["message"]
for r in run["results"]:
    if r["family"] != "test_fault":
        assert r["status"] == "ok" and len(r["samples"]) >= 3, (r["family"], r["status"], r["message"])
assert {"rmsnorm", "softmax"} <= set(by_family), sorted(by_family)  # the run went on
print(f"{want}: {fault['message']}")
PY
}

PERFGATE_TEST_FAULT=crash expect_exit 1 run_suite --output crash.json
check crash.json crashed "signal 11|SIGSEGV|Segmentation"

start=$(date +%s)
PERFGATE_TEST_FAULT=hang expect_exit 1 run_suite --output hang.json --case-timeout 2
check hang.json timeout "2 ?s|timed out"
[ $(( $(date +%s) - start )) -lt 60 ] || fail "a 2 s case limit took over a minute to enforce"

# `run` itself killed while the hanging case runs: the document holds the cases done so far.
# (exec: $! must be perfgate itself, not a subshell running the function.)
exec_suite() { exec "$PERFGATE" run --suites-file "$SUITES" --suite isolation --backend cpu --no-store "$@"; }
(PERFGATE_TEST_FAULT=hang exec_suite --output killed.json --case-timeout 600 >/dev/null 2>&1) &
pid=$!
for _ in $(seq 1 300); do
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["perfgate"]["results"] else 1)' \
    killed.json 2>/dev/null && break
  sleep 0.1
done
children=$(pgrep -P "$pid" || true)  # the measuring child of the hanging case
kill -KILL "$pid"; wait "$pid" 2>/dev/null || true
python3 - <<'PY'
import json
run = json.load(open("killed.json"))["perfgate"]
assert run["run"]["status"] == "partial", run["run"]["status"]
families = [r["family"] for r in run["results"]]
assert families and set(families) == {"rmsnorm"}, families  # killed during test_fault
PY
# The hanging child must not outlive the killed `run` (it would spin on a core forever).
orphans=""
for _ in $(seq 1 50); do
  orphans=""
  for c in $children; do
    # A zombie waiting for a reaper is dead; only a running or sleeping child is an orphan.
    state=$(ps -o stat= -p "$c" 2>/dev/null || true)
    if [ -n "$state" ] && [ "${state#Z}" = "$state" ]; then orphans="$orphans $c"; fi
  done
  [ -z "$orphans" ] && break
  sleep 0.1
done
if [ -n "$orphans" ]; then
  kill -KILL $orphans 2>/dev/null || true
  fail "measuring child(ren)$orphans outlived the killed run"
fi
echo "isolation: ok"
