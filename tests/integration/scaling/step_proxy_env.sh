# Sourced by the step proxy's mpirun tests: lib.sh, Open MPI allowed to run as root over shared
# memory, no leak detection in the ranks, PROXY (the built perfgate-step-proxy; the test fails
# when it is missing) and TINY, the small model they run (2 layers of 12·64² gradients: 6
# buckets of 64 KiB in fp32).
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader
export OMPI_MCA_btl_vader_single_copy_mechanism=none
# Every perfgate-step-proxy process is an MPI rank, even one that only reports a usage error
# (rank 0 says it once MPI is up): no leak reports from sanitizer builds, as for all ranks.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
PROXY="$BUILD_DIR/scaling/step_proxy/perfgate-step-proxy"
[ -x "$PROXY" ] || fail "perfgate-step-proxy is not built at $PROXY"
TINY=(--layers 2 --hidden 64 --heads 4 --seq 32 --batch 2)
