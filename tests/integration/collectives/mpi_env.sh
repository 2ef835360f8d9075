# Sourced by the collectives scripts after ../lib.sh: runs perfgate-collectives under mpirun,
# kept on this machine (self + shared memory) and allowed as root (CI containers).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader
# Containers often forbid the cross-process memory attach vader uses for large messages.
export OMPI_MCA_btl_vader_single_copy_mechanism=none
# OpenMPI keeps its allocations until exit by design (and its frames carry no frame pointers for
# a suppression to match): no leak reports from sanitizer builds of the ranks.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
COLLECTIVES="$BUILD_DIR/microbench/collectives/perfgate-collectives"

[ -x "$COLLECTIVES" ] || fail "perfgate-collectives is not built at $COLLECTIVES"

# run_collectives NP ARGS...: one job of NP ranks.
run_collectives() {
  local np=$1
  shift
  mpirun --oversubscribe -np "$np" "$COLLECTIVES" "$@"
}

# ingest_or_skip FILE [ARGS...]: `perfgate ingest` into $WORK/store.db, or remember to skip.
INGEST_SKIPPED=0
export PERFGATE_DB="$WORK/store.db"
ingest_or_skip() {
  set +e
  "$PERFGATE" ingest "$@" >"$WORK/ingest.out" 2>"$WORK/ingest.err"
  local rc=$?
  set -e
  if grep -q "not built yet" "$WORK/ingest.err"; then
    INGEST_SKIPPED=1
    return 1
  fi
  [ "$rc" -eq 0 ] || { cat "$WORK/ingest.out" "$WORK/ingest.err"; fail "perfgate ingest $* exited $rc"; }
}

# Everything else passed; exit 77 (skipped) when an ingest step could not run.
finish() {
  if [ "$INGEST_SKIPPED" = 1 ]; then
    echo "SKIP: perfgate ingest is not built yet; every other check passed"
    exit 77
  fi
  echo "ok"
}
