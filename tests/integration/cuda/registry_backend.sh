#!/usr/bin/env bash
# Backend "cuda" of the microbench registry, through perfgate-microbench: each registered CUDA
# implementation is skipped without a GPU, and with one passes its correctness check and
# returns samples.
source "$(dirname "$0")/../lib.sh"
runner="$(dirname "$PERFGATE")/perfgate-microbench"
check="${PERFGATE_DEVICE_CHECK:?PERFGATE_DEVICE_CHECK not set}"
gpu=0
"$check" --probe | grep -q "CUDA device(s)" && gpu=1

policy='{"warmup_s":0.01,"min_sample_s":0.001,"min_samples":3,"min_time_s":0.01,"max_samples":10,"max_time_s":1,"target_rel_ci":0.05}'
run_case() {  # family impl params-json
  local json="{\"family\":\"$1\",\"backend\":\"cuda\",\"impl\":\"$2\",\"params\":$3,\"seed\":42,\"slowdown\":1,\"policy\":$policy}"
  expect_exit 0 "$runner" --case-json "$json" --output "$WORK/result.json"
  python3 - "$WORK/result.json" "$gpu" "$1/$2" <<'PY'
import json, sys
result = json.load(open(sys.argv[1]))["perfgate"]["results"][0]
want = "ok" if sys.argv[2] == "1" else "skipped"
if result["status"] != want or result["params"].get("backend") != "cuda":
    sys.exit(f"{sys.argv[3]}: status {result['status']} ({result.get('message', '')}), expected {want}")
if want == "ok" and not result["samples"]:
    sys.exit(f"{sys.argv[3]}: no samples")
PY
}

rows='{"rows":"64","cols":"1024","dtype":"bf16"}'
for family in rmsnorm layernorm softmax bias_gelu swiglu; do
  for impl in fused unfused; do run_case "$family" "$impl" "$rows"; done
done
run_case gemm fused '{"model":"gpt2-small","proj":"qkv","tokens":"512","epilogue":"bias_gelu","dtype":"bf16"}'
run_case gemm unfused '{"model":"gpt2-small","proj":"qkv","tokens":"512","epilogue":"bias_gelu","dtype":"bf16"}'
echo "registry_backend: cuda implementations $([ $gpu = 1 ] && echo measured || echo skipped without a GPU)"
