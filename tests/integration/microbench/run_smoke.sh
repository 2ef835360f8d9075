#!/usr/bin/env bash
# `perfgate run --suite smoke` end to end on the CPU: every case measured in a child process,
# a complete result document, a results table, and the run in the store.
source "$(dirname "$0")/../lib.sh"
start=$(date +%s.%N)
expect_exit 0 "$PERFGATE" run --suite smoke --backend cpu --suites-file "$SOURCE_DIR/suites/suites.toml" \
  --db "$WORK/store.db" --output "$WORK/smoke.json" --trigger adhoc --label purpose=test \
  --branch feature/x --commit 0123abc
end=$(date +%s.%N)
expect_in out 'attention/b:2/backend:cpu/causal:1/.*impl:blocked'
expect_in out 'GB/s'
expect_in out 'stored in'
python3 - "$WORK/smoke.json" "$start" "$end" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
pg = doc["perfgate"]
run = pg["run"] if "run" in pg else pg
res = pg["results"]
statuses = {r["status"] for r in res}
assert statuses == {"ok"}, statuses
families = {r["family"] for r in res}
assert len(families) == 11, families
assert all(len(r["samples"]) >= 5 for r in res)
assert all(r["extra"]["counters"]["bytes"] > 0 for r in res)
# Wall time against measured time (samples + warm-ups): the harness's efficiency, printed.
measured = sum(r["extra"]["sampling"]["sampled_s"] + r["extra"]["sampling"]["warmup_s"] for r in res)
wall = float(sys.argv[3]) - float(sys.argv[2])
print(f"smoke: {len(res)} cases, wall {wall:.2f} s, samples+warm-ups {measured:.2f} s, ratio {wall/measured:.2f}")
PY
text=$(python3 -c "import json;d=json.load(open('$WORK/smoke.json'));print(json.dumps(d))")
grep -q '"status": "complete"\|"status":"complete"' <<<"$text" || fail "run status is not complete"
grep -q 'feature/x' <<<"$text" || fail "--branch override missing"
grep -q 'purpose' <<<"$text" || fail "--label missing"
[ -s "$WORK/store.db" ] || fail "store not written"
