#!/usr/bin/env bash
# A slow rank (perfgate-collectives --delay-rank, 1 s per operation: far above the scheduling
# noise of 4 ranks on 2 cores) is flagged as a scaling regression against the
# baseline sweep, and the straggler is named.
source "$(dirname "$0")/../lib.sh"
# OpenMPI keeps its allocations until exit by design: no leak reports from sanitizer builds of the ranks.
RANK_ENV=(--env ASAN_OPTIONS=detect_leaks=0)
PLANS=$TEST_DATA/scaling/sweeps.toml
expect_exit 0 "$PERFGATE" sweep ar_pair --plan-file "$PLANS" "${RANK_ENV[@]}" --work-dir "$WORK/base" --no-store
sed 's/^name = "ar_pair"/name = "ar_pair"\nargs = ["--delay-rank", "3", "--delay-us", "1000000"]/' "$PLANS" >"$WORK/slow.toml"
expect_exit 0 "$PERFGATE" sweep ar_pair --plan-file "$WORK/slow.toml" "${RANK_ENV[@]}" --work-dir "$WORK/slow" --no-store
cat "$WORK/out"
expect_in out "3@vnode4"
python3 - "$WORK/base/sweep.json" "$WORK/slow/sweep.json" <<'PY'
import json, sys
def eff(path):
    res = json.load(open(path))["perfgate"]["results"]
    return [r for r in res if r["metric"] == "efficiency" and r["scale"]["nodes"] == 4][0]["summary"]["median"]
base, slow = eff(sys.argv[1]), eff(sys.argv[2])
print("efficiency at 4 ranks: baseline %.3f, with a slow rank %.3f" % (base, slow))
assert slow < base * 0.95, "no efficiency drop"
PY
expect_exit 1 "$PERFGATE" compare --baseline "$WORK/base/sweep.json" --candidate "$WORK/slow/sweep.json"
cat "$WORK/out"
expect_in out "REGRESSION +sweep.all_reduce/.*nodes:4/.*@efficiency"
