#!/usr/bin/env bash
# perfgate-collectives --backend nccl where no GPU is visible (CUDA_VISIBLE_DEVICES empty, so it
# holds on GPU machines too): every rank agrees before NCCL's bootstrap, rank 0 says so in one
# line, exit 4 (no device; not the usage code 2), no document. A build without NCCL refuses the
# flag as a tool error (exit 2). `--backend auto` falls back to MPI and exits 0.
HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/../lib.sh"
source "$HERE/mpi_env.sh"
export CUDA_VISIBLE_DEVICES=
no_gpu() { timeout 120 mpirun --oversubscribe -np "$1" -x CUDA_VISIBLE_DEVICES "$COLLECTIVES" "${@:2}"; }

set +e
no_gpu 1 --backend nccl -b 1K -e 1K -n 1 -w 0 >/dev/null 2>"$WORK/probe.err"
set -e
if grep -q 'this build has no NCCL backend' "$WORK/probe.err"; then
  expect_exit 2 no_gpu 1 --backend nccl -b 1K -e 1K -n 1 -w 0 --output "$WORK/nccl.json"
  expect_in err '^perfgate-collectives: --backend nccl: this build has no NCCL backend$'
  [ ! -e "$WORK/nccl.json" ] || fail "a document was written by a build without NCCL"
  echo "nccl_no_device: no NCCL backend in this build; checked the tool error"
  exit 0
fi

for np in 1 2; do
  expect_exit 4 no_gpu "$np" --backend nccl -b 1K -e 1K -n 1 -w 0 --output "$WORK/nccl-$np.json"
  expect_in err "^perfgate-collectives: --backend nccl: no CUDA device visible on $np of $np ranks \(rank 0 on "
  [ "$(grep -c '^perfgate-collectives:' "$WORK/err")" -eq 1 ] || { cat "$WORK/err"; fail "expected one line from rank 0 ($np ranks)"; }
  [ ! -e "$WORK/nccl-$np.json" ] || fail "a document was written without a device ($np ranks)"
done

expect_exit 0 no_gpu 2 --backend auto -b 1K -e 1K -n 1 -w 0 --output "$WORK/auto.json"
[ -s "$WORK/auto.json" ] || fail "--backend auto without a GPU wrote no document"
echo ok
