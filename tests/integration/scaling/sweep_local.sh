#!/usr/bin/env bash
# Weak-scaling all_reduce over 1, 2 and 4 ranks through the local (mpirun) launcher.
source "$(dirname "$0")/../lib.sh"
# OpenMPI keeps its allocations until exit by design: no leak reports from sanitizer builds of the ranks.
RANK_ENV=(--env ASAN_OPTIONS=detect_leaks=0)
PLANS=$TEST_DATA/scaling/sweeps.toml

# --plan prints the commands and runs nothing.
expect_exit 0 "$PERFGATE" sweep ar_weak --plan-file "$PLANS" --plan "${RANK_ENV[@]}" --work-dir "$WORK/plan"
expect_in out "N4xR1 nodes=4 ranks/node=1"
expect_in out "mpirun --oversubscribe -n 4 .*perfgate-collectives .*--collective all_reduce"
[ ! -e "$WORK/plan/N1xR1/result.json" ] || fail "--plan ran a point"

# A bad plan: one line naming file:line:key, exit 2, nothing written.
expect_exit 2 "$PERFGATE" sweep broken --plan-file "$TEST_DATA/scaling/bad_plan.toml" --db "$WORK/bad.db"
expect_in err "bad_plan.toml:5: ranks_per_node: expected an integer"
[ ! -e "$WORK/bad.db" ] || fail "a bad plan created the store"

expect_exit 0 "$PERFGATE" sweep ar_weak --plan-file "$PLANS" "${RANK_ENV[@]}" --work-dir "$WORK/w" --db "$WORK/s.db"
cat "$WORK/out"
expect_in out "sweep ar_weak \(weak scaling, launcher local\): 3/3 points"
expect_in out "ingested"
python3 - "$WORK/w/sweep.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))["perfgate"]
res = doc["results"]
def get(metric, nodes):
    return [r for r in res if r["metric"] == metric and r["scale"]["nodes"] == nodes]
for n in (2, 4):
    eff = get("efficiency", n)
    assert len(eff) == 1 and eff[0]["unit"] == "ratio", (n, eff)
    assert eff[0]["direction"] == "higher_is_better"
    assert eff[0]["summary"]["median"] > 0, eff
    assert get("busbw", n)[0]["summary"]["median"] > 0
    t = get("time", n)[0]
    assert len(t["extra"]["per_rank_us"]) == n, t["extra"]
    assert t["extra"]["rank_hosts"][str(n - 1)] == "vnode%d" % n, t["extra"]
assert get("efficiency", 2)[0]["summary"]["median"] > 0.5  # the reference point itself
assert not get("efficiency", 1), "a 1-rank all_reduce cannot be the reference"
assert doc["run"]["status"] == "complete", doc["run"]["status"]
assert doc["run"]["metadata"]["sweep"]["missing"] == []
PY

# A point that fails is recorded with its reason; the sweep goes on and the run is partial.
expect_exit 0 "$PERFGATE" sweep ar_one_fails --plan-file "$PLANS" "${RANK_ENV[@]}" --work-dir "$WORK/f" --no-store
expect_in out "1/2 points"
expect_in out "N2xR1 +2 MISSING: exit 5"
expect_in err "point N2xR1 missing: exit 5"
python3 - "$WORK/f/sweep.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))["perfgate"]["run"]
assert run["status"] == "partial", run["status"]
missing = run["metadata"]["sweep"]["missing"]
assert [m["point"] for m in missing] == ["N2xR1"], missing
assert missing[0]["reason"].startswith("exit 5"), missing
PY
