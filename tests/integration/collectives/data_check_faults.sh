#!/usr/bin/env bash
# The data check against an MPI that delivers wrong results (a PMPI interposer preloaded into
# every rank, tests/support/mpi_faults.cpp), in real processes: the wrong elements are counted
# in the right column, the footer and the exit status say FAILED, and the document keeps each
# failed case as an error. One fault moves right values to the wrong place: an alltoall whose
# every block of a multiple of 8 elements came from the block meant for the next peer passed
# with 0 wrong elements while element i read pattern value i.
HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/../lib.sh"
source "$HERE/mpi_env.sh"
[ -f "${MPI_FAULTS:-}" ] || fail "MPI_FAULTS is not a built library: '${MPI_FAULTS:-}'"
# A sanitizer build's runtime must come first; the preloaded interposer comes before it.
export ASAN_OPTIONS="$ASAN_OPTIONS:verify_asan_link_order=0"

# faulty FAULT NP ARGS...: one job of NP ranks whose MPI has FAULT.
faulty() {
  local fault=$1 np=$2
  shift 2
  mpirun --oversubscribe -np "$np" -x LD_PRELOAD="$MPI_FAULTS" -x MPI_FAULT="$fault" \
    "$COLLECTIVES" "$@"
}
# wrong_cells FILE: each row's size, out-of-place #wrong and in-place #wrong.
wrong_cells() { awk '!/^#/ && NF == 13 {print $1, $9, $13}' "$1"; }

# --- alltoall, every block from the wrong slot (out of place; in place passes through): 2 ranks
# of 256 to 64 Ki floats, blocks of 128 to 32 Ki elements. Each rank receives size / 4
# elements, so the two ranks check twice that; at least half must be wrong.
expect_exit 1 faulty alltoall_next_block 2 --backend mpi --collective alltoall -b 1K -e 256K \
  -f 16 -n 1 -w 0 --output "$WORK/alltoall.json"
cp "$WORK/out" "$WORK/alltoall.txt"
[ "$(wrong_cells "$WORK/alltoall.txt" | wc -l)" -eq 3 ] || { cat "$WORK/alltoall.txt"; fail "alltoall: not 3 rows"; }
while read -r size out_of_place in_place; do
  count=$((size / 4))
  [ "$out_of_place" -ge "$count" ] && [ "$out_of_place" -le $((2 * count)) ] ||
    fail "alltoall $size B: $out_of_place of $((2 * count)) elements wrong out of place, not most"
  [ "$in_place" = 0 ] || fail "alltoall $size B: $in_place wrong in place, where MPI was right"
done < <(wrong_cells "$WORK/alltoall.txt")
expect_in alltoall.txt '^# Out of bounds values : [0-9]+ FAILED$'
# Blocks of 2 to 64 floats (16 B to 512 B): each wrong block is caught. With chunks of 16
# elements (until 2026-12-06), the 8-element blocks of 64 B sat inside one chunk, 8 apart, and
# passed with 0 wrong elements in each of -c 4's draws.
expect_exit 1 faulty alltoall_next_block 2 --backend mpi --collective alltoall -b 16 -e 512 \
  -f 2 -n 1 -w 0 -c 4
cp "$WORK/out" "$WORK/small.txt"
[ "$(wrong_cells "$WORK/small.txt" | wc -l)" -eq 6 ] || { cat "$WORK/small.txt"; fail "small alltoall: not 6 rows"; }
while read -r size out_of_place in_place; do
  [ "$out_of_place" -ge $((size / 8)) ] ||
    { cat "$WORK/small.txt"; fail "small alltoall $size B: $out_of_place of $((size / 4)) elements wrong"; }
done < <(wrong_cells "$WORK/small.txt")
# The document keeps each out-of-place case as an error with the table's count, and each
# in-place one as a result.
python3 - "$WORK/alltoall.json" "$WORK/alltoall.txt" <<'PY' || fail "alltoall: the document does not keep the failed checks"
import json, sys
cases = json.load(open(sys.argv[1]))["benchmarks"]
rows = [l.split() for l in open(sys.argv[2]) if not l.startswith("#") and len(l.split()) == 13]
failed = {c["name"]: c["error_message"] for c in cases if c.get("error_occurred")}
want = {f"collectives.alltoall/bytes:{r[0]}/dtype:f32/inplace:0/redop:none/root:-1":
        f"error: data check: {r[8]} wrong elements" for r in rows}
assert failed == want, (failed, want)
assert sum(1 for c in cases if not c.get("error_occurred")) == 3, cases
PY

# --- all_reduce, one element's sign flipped on rank 0 in every call of more than one element:
# exactly one wrong element in each row's both columns, whatever the datatype.
expect_exit 1 faulty allreduce_sign 2 --backend mpi --collective all_reduce -b 64 -e 4K -f 8 \
  -n 1 -w 0 -d float,bfloat16,int32
cp "$WORK/out" "$WORK/allreduce.txt"
[ "$(wrong_cells "$WORK/allreduce.txt" | wc -l)" -eq 9 ] || { cat "$WORK/allreduce.txt"; fail "all_reduce: not 9 rows"; }
[ "$(wrong_cells "$WORK/allreduce.txt" | awk '$2 != 1 || $3 != 1' | wc -l)" -eq 0 ] ||
  { cat "$WORK/allreduce.txt"; fail "all_reduce: a row without exactly one wrong element a column"; }
expect_in allreduce.txt '^# Out of bounds values : 18 FAILED$'

# --- An fp8 e5m2 average over 3 ranks with one element halved on rank 0 (the MPI backend sums,
# then divides): exactly one wrong element in each row's both columns. Until 2026-12-06 the
# tolerance of a rounded average was twice the epsilon, half the value in e5m2: 0 wrong, OK.
expect_exit 1 faulty allreduce_halve_e5m2 3 --backend mpi --collective all_reduce -b 96 -e 6K \
  -f 8 -n 1 -w 0 -d f8e5m2 -o avg
cp "$WORK/out" "$WORK/average.txt"
[ "$(wrong_cells "$WORK/average.txt" | wc -l)" -eq 3 ] || { cat "$WORK/average.txt"; fail "e5m2 average: not 3 rows"; }
[ "$(wrong_cells "$WORK/average.txt" | awk '$2 != 1 || $3 != 1' | wc -l)" -eq 0 ] ||
  { cat "$WORK/average.txt"; fail "e5m2 average: a row without exactly one wrong element a column"; }
expect_in average.txt '^# Out of bounds values : 6 FAILED$'

# --- The same programs without a fault pass: the interposer itself changes nothing.
expect_exit 0 faulty none 2 --backend mpi --collective alltoall,all_reduce -b 1K -e 256K -f 16 \
  -n 1 -w 0
[ "$(grep -c '^# Out of bounds values : 0 OK$' "$WORK/out")" -eq 2 ] || fail "no fault: not 2 passing tables"
finish
