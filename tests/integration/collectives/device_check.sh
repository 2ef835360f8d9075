#!/usr/bin/env bash
# GPU smoke check of the NCCL backend on a one-GPU machine (not a ctest test: needs a GPU).
# usage: device_check.sh PERFGATE_COLLECTIVES OUT_DIR
# One GPU allows one NCCL rank: this checks bootstrap, every collective and datatype with the
# data check, CUDA-graph replay, grouped (-m) and blocking (-z) loops, launch times, cycles
# and in-place-only sweeps (-C, -N, -O), per-iteration event timing, timestamps and the default
# stream (-I, -S, -y), a byte budget (-s), misaligned buffers (-u), registered buffers (-R 1,
# -R 2), a CTA policy (-x), the memory report (-M), a rank split (NCCL_TESTS_SPLIT), the cuBLAS
# overlap, buckets and the watchdog; not bandwidth.
# Each run must exit as wanted and print its expected line; the script fails otherwise.
B=$1
OUT=$2
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader
run() { timeout 150 mpirun --oversubscribe -np 1 "$B" --backend nccl "$@"; }
source "$(dirname "$0")/../device_expect.sh"
CHECKED="^# Out of bounds values +: 0 OK"
nvidia-smi -L
run --collective all -d all -o all -b 1K -e 16M -f 16 -n 5 -w 2 --output "$OUT/all.json" >"$OUT/all.txt" 2>&1
expect all 0 $? "$CHECKED"
grep -E "Out of bounds|Skipped" "$OUT/all.txt" | sort | uniq -c
# -M 1: the memory report after the footer; out of place, 1 GiB in and 1 GiB out.
run -M 1 -b 8 -e 1G -f 8 -n 20 -w 5 --output "$OUT/ar.json" >"$OUT/ar.txt" 2>&1
expect ar 0 $? "$CHECKED" "^# GPU memory usage     : Initialization [0-9.]+ [KMG]?B \\| User-Allocated 2\\.[0-9]+ GB \\| Collective -?[0-9.]+ [KMG]?B \\| Total  [0-9.]+ [KMG]?B$"
run -G 4 -b 8 -e 1G -f 8 -n 20 -w 5 --output "$OUT/graph.json" >"$OUT/graph.txt" 2>&1
expect graph 0 $? "$CHECKED"
# nccl-tests' -m (one NCCL group of 4 operations per iteration), -z (a wait and a barrier after
# each iteration) and -i (fixed increments), every collective.
run --collective all -m 4 -b 1M -e 4M -i 1M -n 5 -w 2 --output "$OUT/grouped.json" >"$OUT/grouped.txt" 2>&1
expect grouped 0 $? "agg iters: 4 validation: 1" "$CHECKED"
run --collective all -z 1 -b 1K -e 1M -f 32 -n 5 -w 2 >"$OUT/blocking.txt" 2>&1
expect blocking 0 $? "$CHECKED"
run -G 4 -m 2 -b 8 -e 1M -f 32 -n 5 -w 2 >"$OUT/graph_grouped.txt" 2>&1
expect graph_grouped 0 $? "agg iters: 2 validation: 1 graph: 4" "$CHECKED"
# -C (the host's launch time in the time columns), -N (cycles) and -O 0 (in place only).
run -C 1 -N 2 -O 0 -b 8 -e 1M -f 32 -n 20 -w 5 --output "$OUT/cputime.json" >"$OUT/cputime.txt" 2>&1
expect cputime 0 $? "root  cputime   algbw" "$CHECKED"
# -I 1 (each iteration timed by CUDA events), -S 1 (timestamps) and -y 1 (the legacy default
# stream), every collective checked.
run --collective all -I 1 -S 1 -y 1 -b 1K -e 16M -f 16 -n 20 -w 2 --output "$OUT/per_iteration.json" >"$OUT/per_iteration.txt" 2>&1
expect per_iteration 0 $? "^# Per-Iteration Report: CUDA event timing; i_\* uses max over process rows $" "i_cv%           timestamp$" "$CHECKED"
# -s 64K: a byte budget per timed loop; the event-timed iterations (-I 1) of 1K, 32K and 1M are
# 20, 2 and 1 (the -J file's actual_iterations and times_us).
run -s 64K -I 1 -b 1K -e 1M -f 32 -n 20 -w 2 -J "$OUT/budget_nccl.json" >"$OUT/budget.txt" 2>&1
expect budget 0 $? "$CHECKED"
# -u 3: every buffer 3 elements past its allocation, every collective and type checked there.
run --collective all -d all -u 3 -b 1K -e 1M -f 32 -n 2 -w 1 >"$OUT/unaligned.txt" 2>&1
expect unaligned 0 $? "graph: 0 unalign: 3$" "$CHECKED"
# versioned NAME RELEASE OPTION EXPECTED ARGS...: a run of a feature that came with NCCL
# RELEASE. A library older than that must refuse it with exit 2, naming OPTION and its own
# version (also a pass); a newer one must pass the data check and print EXPECTED.
versioned() {
  local name=$1 release=$2 option=$3 expected=$4 rc
  shift 4
  run "$@" --output "$OUT/$name.json" >"$OUT/$name.txt" 2>&1
  rc=$?
  if grep -q "needs NCCL $release or newer" "$OUT/$name.txt"; then
    expect "$name" 2 $rc "^perfgate-collectives: $option: needs NCCL $release or newer \(this library is "
  else
    expect "$name" 0 $rc "$expected" "$CHECKED"
  fi
}
# -R 1 (ncclCommRegister) and -R 2 (symmetric windows), every collective checked on registered
# buffers, the windows also graph-replayed.
versioned registered 2.19 "--local_register 1" "^# Registered buffers: ncclCommRegister \(-R 1\) $" \
  --collective all -R 1 -b 1K -e 16M -f 16 -n 5 -w 2
versioned symmetric 2.27 "--local_register 2" "^# Registered buffers: symmetric windows, ncclCommWindowRegister \(-R 2\) $" \
  --collective all -R 2 -G 2 -b 1K -e 16M -f 16 -n 5 -w 2
# -x 1: the communicator made with NCCL's efficiency CTA policy (ncclCommInitRankConfig), every
# collective checked.
versioned cta_policy 2.27 "--cta_policy 1" "^# CTA policy: efficiency \(-x 1\) $" \
  --collective all -x 1 -b 1K -e 16M -f 16 -n 5 -w 2
# NCCL_TESTS_DEVICE, as nccl-tests: the rank runs on the device it names (0 here), and one past
# the last device is refused with one line before NCCL starts.
NCCL_TESTS_DEVICE=0 run -b 1K -e 1M -f 32 -n 5 -w 2 >"$OUT/first_device.txt" 2>&1
expect first_device 0 $? "device  0 \\[" "$CHECKED"
NCCL_TESTS_DEVICE=4096 run -b 1K -e 1K -n 1 -w 0 >"$OUT/no_device.txt" 2>&1
expect no_device 2 $? "^perfgate-collectives: rank 0: NCCL_TESTS_DEVICE=4096: this rank sees [0-9]+ CUDA devices? \\(0\\.\\.[0-9]+\\)$"
# NCCL_TESTS_SPLIT: two ranks on the one GPU, each its own group and NCCL communicator of one
# rank (group bootstrap), every collective checked.
NCCL_TESTS_DEVICE=0 NCCL_TESTS_SPLIT="MOD 2" timeout 150 mpirun --oversubscribe -np 2 "$B" \
  --backend nccl --collective all -b 1K -e 1M -f 32 -n 5 -w 2 >"$OUT/split.txt" 2>&1
expect split 0 $? "^#  Rank  1 Group  1 Pid " "$CHECKED"
# NCCL_TESTS_MIN_BW: no single GPU moves 1 PB/s, so the table fails (exit 1) and says so.
NCCL_TESTS_MIN_BW=1e6 run -b 1M -e 16M -f 16 -n 5 -w 2 >"$OUT/min_busbw.txt" 2>&1
expect min_busbw 1 $? "^# Avg bus bandwidth    : [0-9.e+-]+ FAILED$" "below 90% of NCCL_TESTS_MIN_BW=1e\\+06$"
run --collective broadcast -b 1G -e 1G -n 20 -w 5 >"$OUT/bcast.txt" 2>&1
expect bcast 0 $? "$CHECKED"
run --mode overlap -e 256M --gemm-n 4096 -n 20 -w 5 --output "$OUT/overlap.json" >"$OUT/overlap.txt" 2>&1
expect overlap 0 $? "^# compute alone .* efficiency -?[0-9.]+$"
run --mode buckets --bucket-total 1G --bucket-min 1M --bucket-max 1G -f 4 -n 1 -w 2 --output "$OUT/buckets.json" >"$OUT/buckets.txt" 2>&1
expect buckets 0 $? "^# Best bucket: [0-9]+ B$"
# The GPU's own memory bounds a rank's buffers: 2 × 128 GiB of float all_reduce does not fit
# on any GPU sold today (H200 141 GB, B200 192 GB); the 1 MiB size still runs.
run -b 1M -e 128G -f 131072 -n 2 -w 1 --output "$OUT/memory.json" >"$OUT/memory.txt" 2>&1
expect memory 0 $? "^# Skipped: all_reduce float 137438953472 B: rank 0 \(.+\) needs 256\.0 GiB for its buffers, more than .* of GPU 0 memory available"
start=$(date +%s)
run -b 1M -e 1M -n 2 -w 1 --delay-rank 0 --delay-us 20000000 --timeout-s 2 --output "$OUT/hang.json" >"$OUT/hang.txt" 2>&1
expect hang 5 $? "watchdog: .* did not complete within 2 s"
echo "hang: ended after $(( $(date +%s) - start )) s (2 s watchdog)"
expect_file hang "$OUT/hang.json" present  # the partial document, with the timed-out case
for f in "$OUT"/*.txt; do echo "=== $f"; tail -n 40 "$f"; done
device_verdict collectives
