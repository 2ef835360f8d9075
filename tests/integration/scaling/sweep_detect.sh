#!/usr/bin/env bash
# `perfgate detect` over stored sweep history: four clean sweeps, then four in which one of the
# four ranks is slow (perfgate-collectives --delay-rank). The 4-rank efficiency series must show
# a confirmed regression where the slow sweeps begin; the 2-rank series (no slow rank) none.
source "$(dirname "$0")/../lib.sh"
RANK_ENV=(--env ASAN_OPTIONS=detect_leaks=0)
PLANS=$TEST_DATA/scaling/sweeps.toml
DB=$WORK/store.db
# 300 ms per operation: far above the few milliseconds of scheduling noise of 4 ranks on 2 cores.
sed 's/^name = "ar_pair"/name = "ar_pair"\nargs = ["--delay-rank", "3", "--delay-us", "300000"]/' "$PLANS" >"$WORK/slow.toml"
for i in 1 2 3 4; do
  expect_exit 0 "$PERFGATE" sweep ar_pair --plan-file "$PLANS" "${RANK_ENV[@]}" --work-dir "$WORK/base$i" --db "$DB"
done
for i in 1 2 3 4; do
  expect_exit 0 "$PERFGATE" sweep ar_pair --plan-file "$WORK/slow.toml" "${RANK_ENV[@]}" --work-dir "$WORK/slow$i" --db "$DB"
done

# Eight runs: four on each side (the permutation test's smallest p is then 1/70).
DETECT=(detect --db "$DB" --min-segment 4 --alpha 0.05 --confirm 3)
expect_exit 1 "$PERFGATE" "${DETECT[@]}" --series 'sweep.all_reduce/*nodes:4*@efficiency'
cat "$WORK/out"
expect_in out "REGRESSION"
expect_exit 1 "$PERFGATE" "${DETECT[@]}" --series 'sweep.all_reduce/*nodes:4*@efficiency' --format json
python3 - "$WORK/out" "$WORK/slow1/sweep.json" <<'PY'
import json, sys
series = json.load(open(sys.argv[1]))
first_slow = json.load(open(sys.argv[2]))["perfgate"]["run"]["uuid"]
assert len(series) == 1 and series[0]["points"] == 8, series
cps = [c for c in series[0]["change_points"] if c["regression"]]
assert len(cps) == 1 and cps[0]["index"] == 4 and cps[0]["status"] == "confirmed", cps
assert cps[0]["run"] == first_slow, (cps[0]["run"], first_slow)
print("efficiency %.4f -> %.4f from the first slow sweep (%s)" % (cps[0]["before"], cps[0]["after"], first_slow))
PY
expect_exit 0 "$PERFGATE" "${DETECT[@]}" --series 'sweep.all_reduce/*nodes:2*@efficiency'
echo "ok"
