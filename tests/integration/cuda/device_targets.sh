#!/usr/bin/env bash
# scripts/lib/device-targets.py judges the CUDA targets from a device check's CSV and spread
# table. On the H200 run of 2026-11-29 (tests/data/cuda, converted from the table in
# docs/gpu-results-2026-11-29.md) it must reach the verdicts that document states; a faster
# flash row must flip its verdict; a table without the rows must say "not measured".
source "$(dirname "$0")/../lib.sh"
targets="$SOURCE_DIR/scripts/lib/device-targets.py"
csv="$TEST_DATA/cuda/device-check-2026-11-29.csv"
spread="$TEST_DATA/cuda/spread-2026-11-29.md"

expect_exit 0 python3 "$targets" "$csv" "$spread"
expect_in out "^\| fused memory-bound .*rmsnorm_residual 80.5%.* \| \*\*partly\*\*: 4 of 7 \|$"
expect_in out "^\| cuDNN SDPA .*683 .*699 .*636 .* \| \*\*met\*\* \|$"
expect_in out "^\| own flash .*flash 32.0% .*flash 30.5% .*flash 34.4% .* \| \*\*missed\*\* \|$"
expect_in out "^\| cuBLASLt .*799 TFLOP/s = 101.2% \| \*\*met\*\* \|$"
expect_in out "^\| run-to-run .*rmsnorm_residual/fused 1.60%.* \| \*\*partly\*\*: 7 of 8 \|$"

# A 128-query flash row at 45 % of cuDNN on every target shape: the best own kernel counts.
awk -F, 'BEGIN { OFS = "," } { print }
  $1 == "attention_fwd" && $2 == "cudnn_sdpa" && $5 == "hot" && $3 !~ /causal/ {
    $2 = "flash_q128"; $8 = $8 * 0.45; print }' "$csv" >"$WORK/faster.csv"
expect_exit 0 python3 "$targets" "$WORK/faster.csv"
expect_in out "^\| own flash .*flash_q128 45.0% .* \| \*\*met\*\* \|$"
expect_in out "^\| run-to-run .* \| not measured \|$"

# The norms' most-threads layout at 88 % of the copy bandwidth: each family's best fused form counts.
awk -F, 'BEGIN { OFS = "," } { print }
  $1 == "rmsnorm_residual" && $2 == "fused" && $5 == "hot" && $3 ~ /512 MiB/ {
    $2 = "fused_most_threads"; $10 = 0.88; print }' "$csv" >"$WORK/wider.csv"
expect_exit 0 python3 "$targets" "$WORK/wider.csv"
expect_in out "^\| fused memory-bound .*rmsnorm_residual \(fused_most_threads\) 88.0%.* \| \*\*partly\*\*: 5 of 7 \|$"
expect_not_in out "rmsnorm_residual 80.5%"

head -1 "$csv" >"$WORK/empty.csv"
expect_exit 0 python3 "$targets" "$WORK/empty.csv"
expect_not_in out "\*\*met\*\*"
expect_exit 2 python3 "$targets" "$WORK/missing.csv"
expect_in err "device-targets: cannot read"
echo "device_targets: the 2026-11-29 verdicts reproduced; faster and empty tables judged"
