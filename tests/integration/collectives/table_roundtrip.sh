#!/usr/bin/env bash
# The stdout table round-trips through perfgate's nccl-tests ingester: every busbw in the store
# equals what the table printed for that case, computed as nccl-tests does from the mean time of
# the document's samples (to the printed 2 decimals; a 0.00 is recomputed from the printed time).
HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/../lib.sh"
source "$HERE/mpi_env.sh"

expect_exit 0 run_collectives 2 --backend mpi --collective all -d float,half -b 64K -e 256K -f 4 -n 3 -w 1 \
  --output "$WORK/doc.json"
cp "$WORK/out" "$WORK/table.txt"
if ingest_or_skip --format nccl-tests "$WORK/table.txt"; then
  python3 - "$WORK/store.db" "$WORK/doc.json" <<'PY' || fail "busbw differs between the table and the document"
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
stored = {}
for family, params, median in db.execute(
        "SELECT s.family, s.params, r.median FROM results r JOIN series s ON s.id = r.series_id "
        "WHERE s.metric = 'busbw'"):
    stored[(family, json.dumps(json.loads(params), sort_keys=True))] = median
doc = json.load(open(sys.argv[2]))
expected = {}
for r in doc["perfgate"]["results"]:
    if r["metric"] == "time":
        # The same series on both sides (docs/collectives.md, "Series"): family and params alike.
        mean_us = sum(r["samples"]) / len(r["samples"])
        # hypercube_perf's algbw counts the blocks a rank receives: (n - 1) / n of 2 ranks'.
        share = 0.5 if r["family"] == "collectives.hypercube" else 1.0
        algbw = int(r["params"]["bytes"]) * share / (mean_us * 1e3)  # GB/s
        expected[(r["family"], json.dumps(r["params"], sort_keys=True))] = algbw * r["extra"]["busbw_factor"]
assert len(expected) == 10 * 2 * 2 * 2, len(expected)
assert set(stored) == set(expected), sorted(set(stored) ^ set(expected))[:5]
for key, busbw in expected.items():
    assert abs(stored[key] - busbw) < 0.0051, (key, stored[key], busbw)
print(f"{len(expected)} busbw values round-tripped")
PY
fi
finish
