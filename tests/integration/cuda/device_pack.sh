#!/usr/bin/env bash
# scripts/device-pack gathers what a GPU machine without MPI or Debian's development packages
# needs, and scripts/device-run runs from that pack alone: here the machine's own Open MPI, PMIx
# and fmt are hidden (bind mounts in a private mount namespace), so any library or component
# still taken from the system fails the run. Without a GPU the GPU stages take their skip paths.
source "$(dirname "$0")/../lib.sh"

expect_exit 2 "$SOURCE_DIR/scripts/device-pack" --build-dir "$WORK" --out "$WORK/pack"
expect_in err "perfgate_device_check is missing"
[ ! -e "$WORK/pack" ] || fail "a refused pack left $WORK/pack behind"

expect_exit 0 "$SOURCE_DIR/scripts/device-pack" --build-dir "$BUILD_DIR" --out "$WORK/pack"
expect_in out "device-pack: .* in $WORK/pack"
for f in bin/perfgate_device_check bin/perfgate bin/perfgate-collectives bin/perfgate-step-proxy \
         bin/perfgate-microbench lib/libmpi.so.40 lib/libfmt.so.9 openmpi/bin/mpirun COMMIT; do
  [ -e "$WORK/pack/$f" ] || fail "the pack has no $f"
done
[ -z "$(ls -A "$WORK/pack/lib" | grep -E '^lib(c|stdc\+\+|cudart|cudnn|nccl)\.')" ] ||
  fail "the pack carries a library the GPU machine must provide: $(ls "$WORK/pack/lib")"

expect_exit 2 "$SOURCE_DIR/scripts/device-run" --pack "$WORK" --out "$WORK/run"
expect_in err "is not a pack from scripts/device-pack"
expect_exit 2 "$SOURCE_DIR/scripts/device-run" --pack "$WORK/pack" --budget soon
expect_in err "--budget 'soon' is not a number"

cat >"$WORK/hidden.sh" <<'HIDE'
set -e
mkdir -p "$1/empty"
for d in /usr/lib/x86_64-linux-gnu/openmpi /usr/lib/x86_64-linux-gnu/pmix2 /usr/share/openmpi /etc/openmpi; do
  [ -d "$d" ] && mount --bind "$1/empty" "$d"
done
for f in /usr/bin/orterun /usr/bin/orted /usr/lib/x86_64-linux-gnu/libmpi*.so.* \
         /usr/lib/x86_64-linux-gnu/libopen-*.so.* /usr/lib/x86_64-linux-gnu/libpmix.so.* \
         /usr/lib/x86_64-linux-gnu/libfmt.so.*; do
  [ -f "$f" ] && [ ! -L "$f" ] && mount --bind /dev/null "$f"
done
! /usr/bin/orterun --version >/dev/null 2>&1 || { echo "the system's mpirun is still usable"; exit 3; }
shift
exec "$@"
HIDE
if ! unshare -m --propagation private true 2>/dev/null; then
  echo "device_pack: skipped the run from the pack: no private mount namespace here (needs root)"
  exit 0
fi
expect_exit 0 unshare -m --propagation private bash "$WORK/hidden.sh" "$WORK" \
  "$SOURCE_DIR/scripts/device-run" --pack "$WORK/pack" --out "$WORK/run" \
  --only libraries,gpu-tests,mpi
expect_in out "\| libraries \| 0 \|"
expect_in out "\| gpu-tests \| 0 \|"
expect_in out "\| mpi \| 0 \|"
expect_in out "Collective test concluded: sendrecv_perf"
expect_not_in out "Out of bounds values : [1-9]"
[ -f "$WORK/run/summary.md" ] && [ -f "$WORK/run/logs.tar.gz" ] || fail "no summary or logs in $WORK/run"
echo "device_pack: the pack ran without the system's Open MPI, PMIx and fmt"
