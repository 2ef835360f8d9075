# Sourced by the Slurm tests: points SLURM_CONF at scripts/slurm-local's cluster, or exits 77
# (ctest SKIP) saying why when that cluster could not start.
SLURM_LOCAL="$SOURCE_DIR/scripts/slurm-local"
bash "$SLURM_LOCAL" start >/dev/null 2>"$WORK/slurm-start" || true
if ! status=$(bash "$SLURM_LOCAL" status 2>&1); then
  echo "SKIP: local Slurm cluster unavailable: $status $(cat "$WORK/slurm-start")"
  exit 77
fi
export SLURM_CONF=$(bash "$SLURM_LOCAL" conf)
