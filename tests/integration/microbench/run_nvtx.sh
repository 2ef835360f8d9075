#!/usr/bin/env bash
# NVTX phase ranges: a measuring process under a profiler (here the test's injection library,
# loaded by NVTX's own loader as Nsight's is) shows, per case, the ranges check, warm-up and
# samples of the domain "perfgate", in that order and balanced.
source "$(dirname "$0")/../lib.sh"
export NVTX_INJECTION64_PATH="$NVTX_RECORDER" PERFGATE_NVTX_LOG="$WORK/nvtx.log"
expect_exit 0 "$PERFGATE" run --suites-file "$TEST_DATA/microbench/suites.toml" --suite tiny \
  --no-store --output nvtx.json
one_case='domain perfgate
push perfgate check
pop perfgate
push perfgate warm-up
pop perfgate
push perfgate samples
pop perfgate'
printf '%s\n%s\n' "$one_case" "$one_case" >"$WORK/expected"
diff "$WORK/expected" "$WORK/nvtx.log" || fail "the measuring processes' NVTX ranges"

# Without a profiler named, nothing is loaded and the run is the same.
rm -f "$WORK/nvtx.log"
NVTX_INJECTION64_PATH= expect_exit 0 "$PERFGATE" run --suites-file "$TEST_DATA/microbench/suites.toml" \
  --suite tiny --no-store --output plain.json
[ ! -e "$WORK/nvtx.log" ] || fail "ranges were recorded with no injection library named"
echo "run_nvtx: ok"
