#!/usr/bin/env bash
# The stdout table round-trips through perfgate's nccl-tests ingester: every busbw in the store
# equals what the table printed for that case, computed as nccl-tests does from the mean time of
# the document's samples (to the printed 2 decimals; a 0.00 is recomputed from the printed time).
HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/../lib.sh"
source "$HERE/mpi_env.sh"

# check_roundtrip STORE DOC: the store's busbw values are the table's for DOC's cases, each of 2
# ranks (the table lists its ranks once for each operation).
check_roundtrip() {
  python3 - "$1" "$2" <<'PY' || fail "busbw or scale differs between the table and the document"
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
stored = {}
for family, params, median, ranks in db.execute(
        "SELECT s.family, s.params, r.median, r.scale_ranks FROM results r "
        "JOIN series s ON s.id = r.series_id WHERE s.metric = 'busbw'"):
    stored[(family, json.dumps(json.loads(params), sort_keys=True))] = median
    assert ranks == 2, (family, params, ranks)
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
}

ARGS=(--backend mpi --collective all -d float,half -b 64K -e 256K -f 4 -n 3 -w 1)
expect_exit 0 run_collectives 2 "${ARGS[@]}" --output "$WORK/doc.json"
cp "$WORK/out" "$WORK/table.txt"
if ingest_or_skip --format nccl-tests "$WORK/table.txt"; then
  check_roundtrip "$WORK/store.db" "$WORK/doc.json"
fi

# The same through mpirun --tag-output --timestamp-output, format found by content: every line
# behind the date and its rank's tag ("Mon Dec  7 15:00:43 2026[1,0]<stdout>:"), rank 0's read.
expect_exit 0 mpirun --tag-output --timestamp-output --oversubscribe -np 2 "$COLLECTIVES" \
  "${ARGS[@]}" --output "$WORK/tagged.json"
cp "$WORK/out" "$WORK/tagged.txt"
grep -Eq '^[A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9][0-9] [0-9:]{8} [0-9]{4}\[[0-9]*,0\]<stdout>:# Collective test starting: all_reduce_perf$' \
  "$WORK/tagged.txt" || fail "mpirun --tag-output --timestamp-output did not tag the table"
if ingest_or_skip --db "$WORK/tagged.db" "$WORK/tagged.txt"; then
  check_roundtrip "$WORK/tagged.db" "$WORK/tagged.json"
fi

# The same through mpirun --xml: every line escaped inside <stdout rank="0"> elements, its
# newline as "&#010;".
expect_exit 0 mpirun --xml --oversubscribe -np 2 "$COLLECTIVES" "${ARGS[@]}" \
  --output "$WORK/xml.json"
cp "$WORK/out" "$WORK/xml.txt"
grep -q '^<stdout rank="0"># Collective test starting: all_reduce_perf&#010;</stdout>$' \
  "$WORK/xml.txt" || fail "mpirun --xml did not wrap the table in its elements"
if ingest_or_skip --db "$WORK/xml.db" "$WORK/xml.txt"; then
  check_roundtrip "$WORK/xml.db" "$WORK/xml.json"
fi
finish
