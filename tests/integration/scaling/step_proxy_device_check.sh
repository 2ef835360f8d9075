#!/usr/bin/env bash
# GPU smoke check of perfgate-step-proxy --backend cuda on a one-GPU machine (not a ctest test:
# needs a GPU). usage: step_proxy_device_check.sh PERFGATE_STEP_PROXY OUT_DIR
# One GPU allows one rank: this checks that steps run (cuBLASLt plans, cuDNN SDPA forward and
# backward or its unfused fallback, and the unfused backward forced by
# PERFGATE_PROXY_ATTENTION=unfused; NCCL bootstrap and all-reduce), the document's decomposition
# (whose "compute" names the attention backward used), the straggler delay, the refusal of a
# model larger than the GPU's memory and the watchdog's exit code; not multi-GPU overlap.
B=$1
OUT=$2
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader
run() { timeout 200 mpirun --oversubscribe -np 1 "$B" --backend cuda "$@"; }
nvidia-smi -L
run --layers 2 --hidden 64 --heads 4 --seq 32 --batch 2 --output "$OUT/tiny.json" >"$OUT/tiny.txt" 2>&1
echo "tiny: rc=$?"
LARGE=(--layers 4 --hidden 4096 --heads 32 --seq 2048 --batch 2 --bucket-bytes 26214400 --iters 5)
run "${LARGE[@]}" --output "$OUT/large.json" >"$OUT/large.txt" 2>&1
echo "large: rc=$?"
for shape in tiny large; do
  if [ "$shape" = tiny ]; then args=(--layers 2 --hidden 64 --heads 4 --seq 32 --batch 2); else args=("${LARGE[@]}"); fi
  PERFGATE_PROXY_ATTENTION=unfused run "${args[@]}" --output "$OUT/${shape}_unfused.json" >"$OUT/${shape}_unfused.txt" 2>&1
  echo "${shape}_unfused: rc=$?"
done
run "${LARGE[@]}" --delay-rank 0 --delay-us 5000 --output "$OUT/delay.json" >"$OUT/delay.txt" 2>&1
echo "delay: rc=$?"
# The former nightly shape (512 sequences on one GPU, ~2.7 TiB) is refused before NCCL starts.
run --layers 24 --hidden 4096 --heads 32 --seq 2048 --batch 512 --output "$OUT/too-large.json" \
  >"$OUT/too-large.txt" 2>&1
echo "too-large: rc=$? (2 expected); document written: $([ -e "$OUT/too-large.json" ] && echo yes || echo no)"
start=$(date +%s)
run --delay-rank 0 --delay-us 20000000 --timeout-s 2 --warmup 0 --iters 1 --repetitions 1 \
  --output "$OUT/hang.json" >"$OUT/hang.txt" 2>&1
echo "hang: rc=$? (5 expected) after $(( $(date +%s) - start )) s; document written: $([ -e "$OUT/hang.json" ] && echo yes || echo no)"
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
