#!/usr/bin/env bash
# Every collective on 1, 2 and 4 ranks with the MPI backend: data check passes (also for
# nccl-tests' premultiplied sum, mulsum, whose odd ranks double their inputs), the printed
# busbw is the printed algbw times the nccl-tests factor, the document holds every rank and ingests.
HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/../lib.sh"
source "$HERE/mpi_env.sh"

for np in 1 2 4; do
  expect_exit 0 run_collectives "$np" --backend mpi --collective all -d float,bf16 -o sum,max,mulsum \
    -b 4K -e 64K -f 4 -n 2 -w 1 --output "$WORK/doc$np.json"
  cp "$WORK/out" "$WORK/table$np.txt"
  [ "$(grep -c '^# Out of bounds values : 0 OK$' "$WORK/table$np.txt")" -eq 7 ] \
    || { cat "$WORK/table$np.txt"; fail "np=$np: not every collective passed its data check"; }
  python3 "$HERE/check_run.py" "$WORK/table$np.txt" "$WORK/doc$np.json" "$np" \
    || fail "np=$np: table or document check failed"
  if ingest_or_skip "$WORK/doc$np.json"; then expect_in ingest.out '.'; fi
done

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
