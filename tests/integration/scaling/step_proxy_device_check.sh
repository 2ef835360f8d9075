#!/usr/bin/env bash
# GPU smoke check of perfgate-step-proxy --backend cuda on a one-GPU machine (not a ctest test:
# needs a GPU). usage: step_proxy_device_check.sh PERFGATE_STEP_PROXY OUT_DIR
# One GPU allows one rank: this checks that steps run (cuBLASLt plans, cuDNN SDPA forward and
# backward or its unfused fallback, and the unfused backward forced by
# PERFGATE_PROXY_ATTENTION=unfused; NCCL bootstrap and all-reduce), the document's decomposition
# (whose "compute" names the attention backward used), the straggler delay, the refusal of a
# model larger than the GPU's memory and the watchdog's exit code; not multi-GPU overlap, and
# the gradient check only in its one-rank form (the all-reduced sums equal the local ones: the
# sums' kernels run and read what NCCL left), since NCCL takes one rank per GPU. The tiny runs
# also make the model check (GPU gradients against the host's recomputation).
B=$1
OUT=$2
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader
run() { timeout 200 mpirun --oversubscribe -np 1 "$B" --backend cuda "$@"; }
source "$(dirname "$0")/../device_expect.sh"
nvidia-smi -L
CHECKED="^# gradient check: [0-9]+ buckets summed over 1 ranks"
# The exact pass's staging through the host, bf16 encoding and NCCL all-reduce on the GPU (with
# one rank a left-out bucket would still hold its sum: what it proves needs two GPUs).
EXACT="^# exact pass: [0-9]+ buckets, [0-9]+ gradients per rank, every sum over 1 ranks exact$"
MODEL="^# model check: gradients within"  # tiny shapes only: the host recomputes them
run --layers 2 --hidden 64 --heads 4 --seq 32 --batch 2 --output "$OUT/tiny.json" >"$OUT/tiny.txt" 2>&1
expect tiny 0 $? "$CHECKED" "$EXACT" "$MODEL"
LARGE=(--layers 4 --hidden 4096 --heads 32 --seq 2048 --batch 2 --bucket-bytes 26214400 --iters 5)
run "${LARGE[@]}" --output "$OUT/large.json" >"$OUT/large.txt" 2>&1
expect large 0 $? "$CHECKED" "$EXACT"
for shape in tiny large; do
  if [ "$shape" = tiny ]; then args=(--layers 2 --hidden 64 --heads 4 --seq 32 --batch 2); else args=("${LARGE[@]}"); fi
  PERFGATE_PROXY_ATTENTION=unfused run "${args[@]}" --output "$OUT/${shape}_unfused.json" >"$OUT/${shape}_unfused.txt" 2>&1
  rc=$?
  patterns=("$CHECKED")
  [ "$shape" = tiny ] && patterns+=("$MODEL")
  expect "${shape}_unfused" 0 "$rc" "${patterns[@]}"
done
run "${LARGE[@]}" --delay-rank 0 --delay-us 5000 --output "$OUT/delay.json" >"$OUT/delay.txt" 2>&1
expect delay 0 $?
# The former nightly shape (512 sequences on one GPU, ~2.7 TiB) is refused before NCCL starts.
run --layers 24 --hidden 4096 --heads 32 --seq 2048 --batch 512 --output "$OUT/too-large.json" \
  >"$OUT/too-large.txt" 2>&1
expect too-large 2 $? "^perfgate-step-proxy: --batch 512: the model needs about"
expect_file too-large "$OUT/too-large.json" absent
start=$(date +%s)
run --delay-rank 0 --delay-us 20000000 --timeout-s 2 --warmup 0 --iters 1 --repetitions 1 \
  --output "$OUT/hang.json" >"$OUT/hang.txt" 2>&1
expect hang 5 $? "watchdog: a training step on rank 0"
echo "hang: ended after $(( $(date +%s) - start )) s (2 s watchdog)"
expect_file hang "$OUT/hang.json" absent
for f in "$OUT"/*.txt; do echo "=== $f"; tail -n 20 "$f"; done
python3 - "$OUT" <<'PY'
import json, os, sys
def parts(name):
    path = os.path.join(sys.argv[1], name)
    if not os.path.exists(path):
        print(name, "missing"); return None
    doc = json.load(open(path))["perfgate"]
    run = doc["run"]
    d = {r["metric"]: r["summary"]["median"] for r in doc["results"]}
    print(name, run["metadata"]["step_proxy"]["compute"], "ceiling_gflops", run["metadata"]["step_proxy"]["ceiling_gflops"])
    print("   gradient check:", run["metadata"]["step_proxy"].get("gradient_check"))
    print("   model check:", run["metadata"]["step_proxy"].get("model_check"))
    print("  ", {k: round(v, 4) for k, v in d.items()})
    gap = abs(d["step_time"] - d["compute_time"] - d["exposed_comm_time"]) / d["step_time"]
    print("   compute + exposed vs step: %.2f%% apart; overlap in [0,1]: %s; 0 < mfu <= 1: %s"
          % (100 * gap, 0 <= d["overlap_fraction"] <= 1, 0 < d["mfu"] <= 1))
    return d
parts("tiny.json")
parts("tiny_unfused.json")
parts("large_unfused.json")
large, delay = parts("large.json"), parts("delay.json")
if large and delay:
    print("delay adds %.0f us of compute (5000 expected)" % (delay["compute_time"] - large["compute_time"]))
PY
device_verdict step-proxy
