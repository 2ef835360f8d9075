#!/usr/bin/env bash
# scripts/device-check on a machine with nvcc: it finds the CUDA and cuDNN libraries, builds the
# device check with nvcc alone (what it does on a GPU machine that has no CMake build) and the
# program it builds starts. Without a GPU the program then takes its skip path.
source "$(dirname "$0")/../lib.sh"
script="$SOURCE_DIR/scripts/device-check"

expect_exit 0 "$script" --build-only --arch 80 --build-dir "$WORK/dc"
expect_in err "building for sm_80"
expect_in err "built $WORK/dc/perfgate_device_check"
if ! "$WORK/dc/perfgate_device_check" --probe | grep -q "CUDA device(s)"; then
  expect_exit 0 "$WORK/dc/perfgate_device_check"
  expect_in out "skipped: no CUDA device"
else
  expect_exit 0 "$WORK/dc/perfgate_device_check" --only gemm --samples 3
fi
echo "device_check_script: built and started the device check"
