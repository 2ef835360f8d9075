#!/usr/bin/env bash
# The run's GPU keys come from nvidia-smi and describe the GPU that CUDA's device 0 is: the
# first entry of CUDA_VISIBLE_DEVICES. A stand-in nvidia-smi answers the one query the
# fingerprint makes (and refuses any other), in nvidia-smi's CSV layout.
source "$(dirname "$0")/../lib.sh"
mkdir -p "$WORK/bin"
cat >"$WORK/bin/nvidia-smi" <<'SH'
#!/bin/sh
if [ "$*" = "--query-gpu=index,uuid,pci.bus_id,name,memory.total,driver_version,mig.mode.current,ecc.mode.current --format=csv,noheader" ]; then
  echo "0, GPU-1a2b3c4d-0000-1111-2222-333344445555, 00000000:18:00.0, NVIDIA H200, 143771 MiB, 580.159.04, Disabled, Enabled"
  echo "1, GPU-9f8e7d6c-0000-1111-2222-333344445555, 00000000:2A:00.0, NVIDIA H200, 143771 MiB, 580.159.04, Disabled, Disabled"
  exit 0
fi
echo "unexpected arguments: $*" >&2
exit 64
SH
chmod +x "$WORK/bin/nvidia-smi"

CUDA_VISIBLE_DEVICES=1 PATH="$WORK/bin:$PATH" expect_exit 0 "$PERFGATE" run --backend cpu --no-store \
  --suites-file "$TEST_DATA/microbench/suites.toml" --suite tiny --no-ceilings --output gpu.json
python3 - gpu.json <<'PY' || fail "the GPU keys of the run"
import json, sys
fp = json.load(open(sys.argv[1]))["perfgate"]["fingerprint"]
c, i = fp["comparable"], fp["info"]
assert (c["gpu.model"], c["gpu.memory"], c["gpu.count"]) == ("NVIDIA H200", "143771 MiB", "2"), c
assert c["gpu.ecc"] == "Disabled", c  # GPU 1's, not GPU 0's
assert (i["gpu.index"], i["gpu.pci_bus_id"]) == ("1", "00000000:2A:00.0"), i
assert i["gpu.uuid"] == "GPU-9f8e7d6c-0000-1111-2222-333344445555" and i["gpu.visible_devices"] == "1", i
PY
echo "run_gpu_fingerprint: ok"
