#!/usr/bin/env bash
# perfgate_device_check: usage errors exit 2; without a GPU it skips with the reason and exit 0;
# with one, every correctness check passes and the table has ceilings and every family.
source "$(dirname "$0")/../lib.sh"
check="${PERFGATE_DEVICE_CHECK:?PERFGATE_DEVICE_CHECK not set}"

expect_exit 2 "$check" --samples zero
expect_in err "--samples must be a positive integer"
expect_exit 2 "$check" --no-such-flag
expect_in err "unknown or incomplete argument '--no-such-flag'"

if ! "$check" --probe | grep -q "CUDA device(s)"; then
  expect_exit 0 "$check"
  expect_in out "skipped: no CUDA device"
  echo "cuda_device_check: no GPU here, checked the skip path only"
  exit 0
fi

expect_exit 0 "$check" --samples 3 --table "$WORK/table.md" --csv "$WORK/table.csv"
expect_in table.md "Ceilings: copy [0-9]+ GB/s"
for family in ceiling.copy ceiling.gemm gemm rmsnorm_residual layernorm_residual softmax bias_gelu swiglu rope \
              adamw attention_fwd attention_bwd; do
  expect_in table.md "\\| $family \\|"
done
expect_not_in table.md "FAIL"
