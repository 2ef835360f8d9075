#!/usr/bin/env bash
# --wrap: every measuring process (the ceilings' and each case's) starts under the given command,
# with {case} and $PERFGATE_CASE naming the case as a file; each result records the CPUs its
# process could run on, so a pinning shows; the wrapper enters the fingerprint, so a wrapped run
# is never compared with an unwrapped one unawares; a wrapper that cannot run is refused before
# anything is written, and one that fails fails the cases, never silently.
source "$(dirname "$0")/../lib.sh"
SUITES="$TEST_DATA/microbench/suites.toml"
CPU=$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')

# A wrapper that notes its first argument and the environment's case name, then runs the rest.
printf '#!/bin/sh\necho "$1|$PERFGATE_CASE" >>"%s/wrapped"\nshift\nexec "$@"\n' "$WORK" >"$WORK/note"
chmod +x "$WORK/note"

expect_exit 0 "$PERFGATE" run --suites-file "$SUITES" --suite tiny --no-store --output wrapped.json \
  --wrap "taskset -c $CPU $WORK/note '{case} (quoted)'"
cat >"$WORK/expected" <<TXT
ceilings-cpu (quoted)|ceilings-cpu
softmax_backend=cpu_cols=512_dtype=f32_impl=fused_rows=64 (quoted)|softmax_backend=cpu_cols=512_dtype=f32_impl=fused_rows=64
rmsnorm_backend=cpu_cols=512_dtype=f32_impl=fused_rows=64 (quoted)|rmsnorm_backend=cpu_cols=512_dtype=f32_impl=fused_rows=64
TXT
diff "$WORK/expected" "$WORK/wrapped" || fail "the wrapper did not start every measuring process, named"
python3 - wrapped.json "$CPU" "$WORK/note" <<'PY' || fail "the wrapped run's document"
import json, sys
pg = json.load(open(sys.argv[1]))["perfgate"]
cpu, note = sys.argv[2], sys.argv[3]
assert pg["run"]["metadata"]["wrap"] == ["taskset", "-c", cpu, note, "{case} (quoted)"], pg["run"]["metadata"]
assert pg["fingerprint"]["comparable"]["run.wrap"] == f"taskset -c {cpu} {note} {{case}} (quoted)", pg["fingerprint"]
assert pg["run"]["metadata"]["ceilings"]["cpu"]["copy_gbps"] > 0, pg["run"]["metadata"]
for r in pg["results"]:
    assert r["status"] == "ok", r
    assert r["extra"]["cpus"] == cpu, r["extra"]  # taskset pinned the measuring process
PY

# Unwrapped, a process may run on every CPU the test may; and the two runs do not compare.
expect_exit 0 "$PERFGATE" run --suites-file "$SUITES" --suite tiny --no-store --no-ceilings --output plain.json
python3 - plain.json <<'PY' || fail "the plain run's document"
import json, os, sys
pg = json.load(open(sys.argv[1]))["perfgate"]
assert "wrap" not in pg["run"]["metadata"] and "run.wrap" not in pg["fingerprint"]["comparable"]
allowed = sorted(os.sched_getaffinity(0))
for r in pg["results"]:
    listed = set()
    for part in r["extra"]["cpus"].split(","):
        lo, _, hi = part.partition("-")
        listed.update(range(int(lo), int(hi or lo) + 1))
    assert sorted(listed) == allowed, (r["extra"]["cpus"], allowed)
PY
expect_exit 3 "$PERFGATE" compare plain.json wrapped.json
expect_in out 'fingerprints differ in: run.wrap'

# A wrapper whose process fails: the cases are errors saying so, and the run exits 1.
expect_exit 1 "$PERFGATE" run --suites-file "$SUITES" --suite tiny --no-store --output failing.json --wrap false
python3 - failing.json <<'PY' || fail "the failing wrapper's document"
import json, sys
pg = json.load(open(sys.argv[1]))["perfgate"]
assert "exit 1" in pg["run"]["metadata"]["ceilings"]["cpu"]["error"], pg["run"]["metadata"]
assert [r["status"] for r in pg["results"]] == ["error", "error"], pg["results"]
assert all("measuring process failed (exit 1)" in r["message"] for r in pg["results"]), pg["results"]
PY

# Refused before anything runs or is written: exit 2, one line naming --wrap and the problem.
refused() {
  expect_exit 2 "$PERFGATE" run --suites-file "$SUITES" --suite tiny --no-store --output refused.json --wrap "$1"
  expect_in err "$2"
  [ "$(wc -l <"$WORK/err")" -eq 1 ] || { cat "$WORK/err"; fail "more than one line for --wrap '$1'"; }
  [ ! -e "$WORK/refused.json" ] || fail "--wrap '$1' was refused but wrote its output"
}
refused '' "^perfgate: --wrap: empty"
refused '   ' "^perfgate: --wrap: empty"
refused 'no-such-wrapper -x' "'no-such-wrapper' is not an executable file on \\\$PATH"
refused "$WORK" "is not an executable file$"
refused "taskset -c '0" "a single quote is not closed"
refused 'taskset -c "0' "a double quote is not closed"
echo "run_wrap: ok"
