#!/usr/bin/env bash
# A case whose buffers would not fit a rank's memory is skipped on every rank, with a note naming
# the rank and the numbers, before anything is allocated: an allocation past what the node has
# ends in the out-of-memory killer, with no message and no document. Modes with one case (or
# none left) end with a usage error instead.
HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/../lib.sh"
source "$HERE/mpi_env.sh"

# --max-memory bounds every rank: the sizes past it are skipped, the others measured.
expect_exit 0 run_collectives 2 --backend mpi --collective all_reduce,all_gather -b 64K -e 1M -f 4 \
  -n 1 -w 0 --max-memory 1M --output "$WORK/limited.json"
expect_in out '^# Skipped: all_reduce float 1048576 B: rank 0 \(.+\) needs 2\.0 MiB for its buffers, more than 1\.0 MiB \(--max-memory\) \(2 of 2 ranks short\)$'
expect_in out '^# Skipped: all_gather float 1048576 B: rank 0 \(.+\) needs 1\.5 MiB for its buffers'
expect_not_in out 'Skipped: .* 262144 B'
python3 - "$WORK/limited.json" <<'PY' || fail "limited document"
import json, sys
doc = json.load(open(sys.argv[1]))
sizes = {(r["family"].split(".")[1], int(r["params"]["bytes"])) for r in doc["perfgate"]["results"]}
want = {(c, b) for c in ("all_reduce", "all_gather") for b in (65536, 262144)}
assert sizes == want, sizes
meta = doc["perfgate"]["run"]["metadata"]["collectives"]
assert meta["options"]["max_memory"] == 1048576
skipped = {(s["collective"], s["bytes"]) for s in meta["skipped"]}
assert skipped == {("all_reduce", 1048576), ("all_gather", 1048576)}, meta["skipped"]
assert all("(--max-memory)" in s["reason"] for s in meta["skipped"])
PY

# Without a limit, the node's own memory: 4 ranks × 16 GiB of alltoall buffers (8188 MiB
# sent and received each) is judged against 90 % of MemAvailable, shared by the 4 ranks. Run only
# where that is less than half the need, so that nothing is allocated whatever the machine.
available_kib=$(awk '/^MemAvailable:/ {print $2}' /proc/meminfo)
if [ -n "$available_kib" ] && [ "$available_kib" -lt $((32 * 1024 * 1024)) ]; then
  expect_exit 0 run_collectives 4 --backend mpi --collective alltoall -b 8188M -e 8188M -n 1 -w 0 \
    --output "$WORK/node.json"
  expect_in out '^# Skipped: alltoall float 8585740288 B: rank [0-3] \(.+\) needs 16\.0 GiB for its buffers, more than [0-9.]+ GiB \(90 % of [0-9.]+ GiB of host memory available, shared by 4 ranks\) \(4 of 4 ranks short\)$'
else
  echo "note: MemAvailable ${available_kib:-unknown} KiB; the node-memory case needs under 32 GiB"
fi

# buckets: every bucket too big is a usage error naming the smallest; nothing is written.
expect_exit 2 run_collectives 2 --backend mpi --mode buckets --bucket-total 4M --bucket-min 1M \
  --bucket-max 4M -n 1 -w 0 --max-memory 1M --output "$WORK/buckets.json"
expect_in err '^perfgate-collectives: --bucket-min: no bucket can run; the smallest, 1048576 B: rank 0 \(.+\) needs 2\.0 MiB for its buffers, more than 1\.0 MiB \(--max-memory\)'
[ "$(grep -c '^perfgate-collectives:' "$WORK/err")" -eq 1 ] || { cat "$WORK/err"; fail "expected one line from rank 0"; }
[ ! -e "$WORK/buckets.json" ] || fail "a document was written for buckets that do not fit"

# overlap: the all_reduce's buffers and the GEMM's three operands together.
expect_exit 2 run_collectives 2 --backend mpi --mode overlap -e 1M --gemm-n 512 -n 1 -w 0 \
  --max-memory 4M --output "$WORK/overlap.json"
expect_in err '^perfgate-collectives: --maxbytes 1048576 --gemm-n 512: rank 0 \(.+\) needs 5\.0 MiB for its buffers, more than 4\.0 MiB \(--max-memory\)'
[ ! -e "$WORK/overlap.json" ] || fail "a document was written for an overlap that does not fit"

expect_exit 2 run_collectives 1 --backend mpi --max-memory 12Q
expect_in err "^perfgate-collectives: --max-memory"
finish
