#!/usr/bin/env bash
# A pooled baseline ("the last K nightlies") is cut per series at its last change point: a
# series that stepped up 20 % at nightly 8 of 12 pools only nightlies 8..12, a flat one all 8.
source "$(dirname "$0")/../lib.sh"
GEN="$TEST_DATA/regress/make_gbench.py"
export PERFGATE_DB="$WORK/store.db"
for n in $(seq 1 12); do
  step=100; [ "$n" -ge 8 ] && step=120
  python3 "$GEN" "n$n.json" "$n" "2026-01-$(printf %02d "$n") 00:00:00" BM_Step=$step BM_Flat=50
  "$PERFGATE" ingest --trigger nightly --branch main --commit "c$n" "n$n.json" >/dev/null
done
# The candidate is an ad-hoc run at the new level: not a nightly, so never in the pool.
python3 "$GEN" cand.json 99 "2026-01-13 00:00:00" BM_Step=120 BM_Flat=50
"$PERFGATE" ingest --trigger adhoc --branch main --commit cand cand.json >/dev/null
expect_exit 0 "$PERFGATE" baseline set pool8 --pooled-last 8 --branch main
expect_exit 0 "$PERFGATE" history 'BM_Step@time' --format json
cp "$WORK/out" history.json

# With the cut both series pool one level only, and the candidate is SAME for both.
expect_exit 0 "$PERFGATE" compare baseline:pool8 latest --format json -o report.json
python3 - history.json report.json <<'PY'
import json, sys
runs = [p["run"] for p in json.load(open(sys.argv[1]))[0]["points"]]
nightly = runs[:12]                       # oldest first; the 13th point is the candidate
report = {v["series_id"]: v for v in json.load(open(sys.argv[2]))["verdicts"]}
step, flat = report["BM_Step@time"], report["BM_Flat@time"]
pool = step["details"]["baseline_pool"]
assert pool["cut"] and pool["change_point_run"] == nightly[7], pool
assert sorted(pool["runs"]) == sorted(nightly[7:12]), pool
assert pool["change_point_commit"] == "c8" and abs(pool["relative_change"] - 0.2) < 0.02, pool
assert step["n_baseline"] == 50 and step["verdict"] == "SAME", step
flat_pool = flat["details"]["baseline_pool"]
assert not flat_pool["cut"] and sorted(flat_pool["runs"]) == sorted(nightly[4:12]), flat_pool
assert flat["n_baseline"] == 80 and flat["verdict"] == "SAME", flat
# The comparison's baseline is still the policy's 8 runs; each verdict says what it pooled.
assert sorted(step["baseline_runs"]) == sorted(nightly[4:12]), step["baseline_runs"]
print("pooled_cut: BM_Step pooled", len(pool["runs"]), "runs from", pool["change_point_commit"],
      "; BM_Flat pooled", len(flat_pool["runs"]))
PY
# `report` takes its baseline through the same policy: the same pool, the same verdict.
expect_exit 0 "$PERFGATE" report --baseline baseline:pool8 --candidate latest --format json --output-dir rep
python3 - rep/report.json <<'PY'
import json, sys
step = {v["series_id"]: v for v in json.load(open(sys.argv[1]))["verdicts"]}["BM_Step@time"]
assert step["details"]["baseline_pool"]["cut"] and step["n_baseline"] == 50, step
assert step["verdict"] == "SAME", step
PY
# Other selectors are never cut.
expect_exit 0 "$PERFGATE" compare latest~1 latest --format json -o plain.json --no-save
python3 -c "import json,sys; assert all('baseline_pool' not in v['details'] for v in json.load(open('plain.json'))['verdicts'])"
echo "ok"
