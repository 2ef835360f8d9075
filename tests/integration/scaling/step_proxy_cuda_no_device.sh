#!/usr/bin/env bash
# perfgate-step-proxy --backend cuda where no GPU is visible (CUDA_VISIBLE_DEVICES empty, so it
# holds on GPU machines too): one clear line from rank 0, exit 4 (no_device, not the usage code
# 2), no document; a shape the GPU path cannot take is refused before MPI starts (exit 2).
source "$(dirname "$0")/step_proxy_env.sh"
export CUDA_VISIBLE_DEVICES=
SHAPE=("${TINY[@]}")

for np in 1 2; do
  expect_exit 4 timeout 120 mpirun --oversubscribe -np "$np" -x CUDA_VISIBLE_DEVICES "$PROXY" --backend cuda \
    "${SHAPE[@]}" --output "$WORK/proxy-$np.json"
  expect_in err "^perfgate-step-proxy: --backend cuda: no CUDA device visible on $np of $np ranks"
  [ "$(grep -c '^perfgate-step-proxy:' "$WORK/err")" -eq 1 ] || { cat "$WORK/err"; fail "expected one line from rank 0 ($np ranks)"; }
  [ ! -e "$WORK/proxy-$np.json" ] || fail "a document was written without a device ($np ranks)"
done

expect_exit 2 "$PROXY" --backend cuda --layers 2 --hidden 60 --heads 4 --output "$WORK/bad.json"
expect_in err "^perfgate-step-proxy: --hidden: the cuda backend needs a multiple of 8"
[ ! -e "$WORK/bad.json" ] || fail "a document was written for a refused shape"
echo ok
