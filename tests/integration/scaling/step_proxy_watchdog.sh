#!/usr/bin/env bash
# perfgate-step-proxy's watchdog on the CPU backend over real mpirun ranks: steps well inside
# --timeout-s pass; a rank whose step overruns it (a 30 s straggler delay against 2 s: rank 1
# sleeps, rank 0 waits in its all-reduce) ends the job with exit 5, a line naming the step, rank
# and host, and no document. Without the watchdog the run would end after the delays with exit 0.
source "$(dirname "$0")/step_proxy_env.sh"
SHAPE=("${TINY[@]}" --warmup 1 --iters 2 --repetitions 1)
MPIRUN=(timeout 200 mpirun --oversubscribe -np 2 -x ASAN_OPTIONS=detect_leaks=0)

expect_exit 0 "${MPIRUN[@]}" "$PROXY" "${SHAPE[@]}" --timeout-s 2 --output "$WORK/ok.json"
[ -s "$WORK/ok.json" ] || fail "no document from a run inside the timeout"

expect_exit 5 "${MPIRUN[@]}" "$PROXY" "${SHAPE[@]}" --delay-rank 1 --delay-us 30000000 \
  --timeout-s 2 --output "$WORK/hang.json"
expect_in err "^perfgate-step-proxy: watchdog: a training step on rank [01] \(.+\) did not complete within 2 s$"
[ ! -e "$WORK/hang.json" ] || fail "a document was written after the watchdog fired"
echo ok
