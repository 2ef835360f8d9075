#!/usr/bin/env bash
# buckets, overlap and reference modes run, print their tables and write their series.
HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/../lib.sh"
source "$HERE/mpi_env.sh"

expect_exit 0 run_collectives 2 --backend mpi --mode buckets --bucket-total 1M --bucket-min 64K --bucket-max 1M -f 4 \
  -n 1 -w 1 --output "$WORK/buckets.json"
expect_in out '^# Best bucket: [0-9]+ B$'
python3 - "$WORK/buckets.json" <<'PY' || fail "buckets document"
import json, sys
doc = json.load(open(sys.argv[1]))
rs = [r for r in doc["perfgate"]["results"] if r["family"] == "collectives.bucket_all_reduce"]
sizes = sorted({int(r["params"]["bucket_bytes"]) for r in rs})
assert sizes == [65536, 262144, 1048576], sizes
best = [r for r in rs if r["metric"] == "time" and r["extra"]["best"]]
assert len(best) == 1
times = {int(r["params"]["bucket_bytes"]): r["summary"]["median"] for r in rs if r["metric"] == "time"}
assert times[int(best[0]["params"]["bucket_bytes"])] == min(times.values())
assert doc["perfgate"]["run"]["metadata"]["collectives"]["best_bucket_bytes"] == int(best[0]["params"]["bucket_bytes"])
PY

# A volume smaller than every bucket of the range would time nothing: a usage error naming the
# options, not an empty document with exit 0 (as it was until 2026-12-01).
expect_exit 2 run_collectives 2 --backend mpi --mode buckets --bucket-total 256K -n 1 -w 1 \
  --output "$WORK/no_buckets.json"
expect_in err '^perfgate-collectives: --bucket-total: 262144 B holds no bucket from --bucket-min 1048576 B to --bucket-max 67108864 B'
[ "$(grep -c '^perfgate-collectives:' "$WORK/err")" -eq 1 ] || { cat "$WORK/err"; fail "expected one line from rank 0"; }
[ ! -e "$WORK/no_buckets.json" ] || fail "a document was written for a bad command line"

expect_exit 0 run_collectives 2 --backend mpi --mode overlap -e 256K --gemm-n 96 -n 4 -w 1 --output "$WORK/overlap.json"
expect_in out '^# compute alone [0-9.]+ us, comm alone [0-9.]+ us, both [0-9.]+ us, efficiency -?[0-9.]+$'
python3 - "$WORK/overlap.json" <<'PY' || fail "overlap document"
import json, sys
doc = json.load(open(sys.argv[1]))
m = {r["metric"]: r["samples"][0] for r in doc["perfgate"]["results"] if r["family"] == "collectives.overlap"}
assert set(m) == {"compute_time", "comm_time", "both_time", "overlap_efficiency"}, m
want = (m["compute_time"] + m["comm_time"] - m["both_time"]) / min(m["compute_time"], m["comm_time"])
assert abs(m["overlap_efficiency"] - want) < 1e-9, (m, want)
PY

expect_exit 0 run_collectives 2 --backend mpi --mode reference -b 4K -e 16K -n 2 -w 1 --output "$WORK/ref.json"
expect_in out '^# Reference: plain MPI_Allreduce loop'
python3 - "$WORK/ref.json" <<'PY' || fail "reference document"
import json, sys
doc = json.load(open(sys.argv[1]))
rs = [r for r in doc["perfgate"]["results"] if r["family"] == "collectives.reference_all_reduce"]
assert len(rs) == 3 * 2, len(rs)
PY
finish
