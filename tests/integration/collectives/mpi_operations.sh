#!/usr/bin/env bash
# Every collective on 1, 2 and 4 ranks with the MPI backend, and nccl-tests' integer and double
# types on 3: data check passes (also for nccl-tests' premultiplied sum, mulsum, whose odd ranks
# double their inputs), the printed busbw is the printed algbw times the nccl-tests factor, the
# document holds every rank and ingests.
HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/../lib.sh"
source "$HERE/mpi_env.sh"

for np in 1 2 4; do
  expect_exit 0 run_collectives "$np" --backend mpi --collective all -d float,bf16 -o sum,max,mulsum \
    -b 4K -e 64K -f 4 -n 2 -w 1 --output "$WORK/doc$np.json"
  cp "$WORK/out" "$WORK/table$np.txt"
  [ "$(grep -c '^# Out of bounds values : 0 OK$' "$WORK/table$np.txt")" -eq 10 ] \
    || { cat "$WORK/table$np.txt"; fail "np=$np: not every collective passed its data check"; }
  python3 "$HERE/check_run.py" "$WORK/table$np.txt" "$WORK/doc$np.json" "$np" \
    || fail "np=$np: table or document check failed"
  if ingest_or_skip "$WORK/doc$np.json"; then expect_in ingest.out '.'; fi
done

# nccl-tests' double and integer types by their nccl-tests names, every op, on 3 ranks (integer
# averages are fractional there, and truncate): checks pass, and the series spell the types as
# perfgate's nccl-tests reader does.
expect_exit 0 run_collectives 3 --backend mpi --collective all \
  -d int8,uint8,int32,uint32,int64,uint64,double -o all -b 1K -e 4K -f 4 -n 1 -w 0 \
  --output "$WORK/wide.json"
cp "$WORK/out" "$WORK/wide.txt"
[ "$(grep -c '^# Out of bounds values : 0 OK$' "$WORK/wide.txt")" -eq 9 ] \
  || { cat "$WORK/wide.txt"; fail "integer types: not every collective passed its data check"; }
# Hypercube needs a power-of-two rank count: under --collective all it is skipped, as
# nccl-tests' hypercube_perf skips itself, with a line and an entry in the document.
expect_in wide.txt '^# hypercube_perf: skipped: hypercube needs a power-of-two rank count, not 3$'
! grep -q '^# Collective test starting: hypercube_perf' "$WORK/wide.txt" || fail "hypercube ran on 3 ranks"
python3 "$HERE/check_run.py" "$WORK/wide.txt" "$WORK/wide.json" 3 || fail "integer types: table or document"
python3 - "$WORK/wide.json" <<'PY' || fail "integer types: document series"
import json, sys
results = json.load(open(sys.argv[1]))["perfgate"]["results"]
dtypes = {r["params"]["dtype"] for r in results}
assert dtypes == {"i8", "u8", "i32", "u32", "i64", "u64", "f64"}, dtypes
ops = {r["params"]["redop"] for r in results if r["family"] == "collectives.all_reduce"}
assert ops == {"sum", "prod", "max", "min", "avg", "mulsum"}, ops
skipped = json.load(open(sys.argv[1]))["perfgate"]["run"]["metadata"]["collectives"]["skipped"]
assert {"collective": "hypercube", "reason": "hypercube needs a power-of-two rank count, not 3"} in skipped, skipped
PY

# Named alone on 3 ranks, hypercube is bad input: one line, exit 2, nothing written.
expect_exit 2 run_collectives 3 --backend mpi --collective hypercube --output "$WORK/cube3.json"
expect_in err '^perfgate-collectives: --collective: hypercube needs a power-of-two rank count, not 3$'
[ "$(grep -c '^perfgate-collectives:' "$WORK/err")" -eq 1 ] || { cat "$WORK/err"; fail "hypercube on 3: expected one line"; }
[ ! -e "$WORK/cube3.json" ] || fail "hypercube on 3 ranks wrote a document"
# On 8 ranks (three steps of the hypercube), in groups of 2 operations (-m 2, one after the
# other): every output checks, and algbw counts the 7 blocks of 8 a rank receives.
expect_exit 0 run_collectives 8 --backend mpi --collective hypercube -d float,f8e5m2 -b 1K -e 64K \
  -f 8 -n 2 -w 1 -m 2 -c 2 --output "$WORK/cube8.json"
cp "$WORK/out" "$WORK/cube8.txt"
expect_in cube8.txt '^# Collective test starting: hypercube_perf$'
expect_in cube8.txt '^# Out of bounds values : 0 OK$'
python3 "$HERE/check_run.py" "$WORK/cube8.txt" "$WORK/cube8.json" 8 || fail "hypercube on 8: table or document"

# A wrong --collective is a usage error naming the value, with nothing written.
expect_exit 2 run_collectives 1 --collective allreduce9 --output "$WORK/bad.json"
expect_in err "allreduce9"
[ ! -e "$WORK/bad.json" ] || fail "a document was written for a bad command line"

# -G is nccl-tests' count of graph replays: negative is a usage error, and the MPI backend
# refuses any (its table would say "Graph: 1" for plain launches).
expect_exit 2 run_collectives 2 --backend mpi -G -1 -b 1K -e 1K --output "$WORK/bad.json"
expect_in err '^perfgate-collectives: --cudagraph: must not be negative$'
expect_exit 2 run_collectives 2 --backend mpi -G 2 -b 1K -e 1K --output "$WORK/bad.json"
expect_in err '^perfgate-collectives: --cudagraph: the MPI backend has no CUDA graphs \(0 only\)$'
[ "$(grep -c '^perfgate-collectives:' "$WORK/err")" -eq 1 ] || { cat "$WORK/err"; fail "expected one line from rank 0"; }
[ ! -e "$WORK/bad.json" ] || fail "a document was written for a bad command line"
finish
