# `perfgate doctor`: text and JSON output, exit codes with and without --strict, against captured
# machines (fixture /proc and /sys trees) and replayed nvidia-smi output.
source "$(dirname "$0")/../lib.sh"
DATA="$TEST_DATA/reliability"
mkdir -p "$WORK/empty-bin"
NO_GPU_PATH="$WORK/empty-bin"  # no nvidia-smi here, even on a GPU host

# A tuned machine without a GPU: all info, exit 0 even with --strict (a sanitizer or debug
# build of perfgate itself is a warning, so there --strict gives 2).
expect_exit 0 env PATH="$NO_GPU_PATH" "$PERFGATE" doctor --db "$WORK/s.db" --sysroot "$DATA/sysroot_tuned"
STRICT_CLEAN=0
grep -qE "^warning +build" "$WORK/out" && STRICT_CLEAN=2
expect_exit $STRICT_CLEAN env PATH="$NO_GPU_PATH" "$PERFGATE" doctor --db "$WORK/s.db" --sysroot "$DATA/sysroot_tuned" --strict
expect_in out "^info +gpu +no GPU found"
expect_in out "^info +cpu.governor +all 4 CPUs use the 'performance' governor"
expect_in out "^info +store.filesystem"

# A power-saving, loaded machine: warnings; exit 0, but 2 under --strict.
expect_exit 0 env PATH="$NO_GPU_PATH" "$PERFGATE" doctor --db "$WORK/s.db" --sysroot "$DATA/sysroot_powersave"
expect_in out "^warning +cpu.governor +2 of 4 CPUs use the 'powersave'"
expect_exit 2 env PATH="$NO_GPU_PATH" "$PERFGATE" doctor --db "$WORK/s.db" --sysroot "$DATA/sysroot_powersave" --strict

# A GPU with uncorrected ECC errors and other processes: an error, exit 2; JSON lists it.
expect_exit 2 env PATH="$DATA/fake_gpu/troubled:$NO_GPU_PATH" "$PERFGATE" doctor --db "$WORK/s.db" \
  --sysroot "$DATA/sysroot_tuned" --format json
python3 - "$WORK/out" <<'PY'
import json, sys
findings = json.load(open(sys.argv[1]))
levels = {(f["check"], f["level"]) for f in findings}
for want in [("gpu.ecc", "error"), ("gpu.processes", "warning"), ("gpu.throttle", "warning"),
             ("gpu.persistence", "warning"), ("gpu.mig", "warning"), ("cpu.governor", "info")]:
    assert want in levels, f"{want} not in {sorted(levels)}"
assert all(set(f) == {"check", "level", "message"} for f in findings)
PY
# The captured healthy H200: only info.
expect_exit $STRICT_CLEAN env PATH="$DATA/fake_gpu/healthy:$NO_GPU_PATH" "$PERFGATE" doctor --db "$WORK/s.db" \
  --sysroot "$DATA/sysroot_tuned" --strict
expect_in out "^info +gpu +1 GPU\(s\) found"

# Usage errors are one clear line, exit 2.
expect_exit 2 "$PERFGATE" doctor --format yaml
expect_in err "format"
expect_exit 2 "$PERFGATE" doctor --sysroot "$WORK/no-such-dir"
expect_in err "no-such-dir"
echo "doctor_cli: ok"
