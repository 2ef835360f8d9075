#!/usr/bin/env bash
# `perfgate run` and the cuda backend on a machine without a GPU: naming the backend is refused
# with one line and exit 3 before anything is written; `--backend auto` runs the suite's CPU
# cases only. With a GPU the cuda cases are listed instead.
source "$(dirname "$0")/../lib.sh"
SUITES="$SOURCE_DIR/suites/suites.toml"
built_in=1
"$PERFGATE" run --suites-file "$SUITES" --suite smoke --backend cuda --list 2>&1 | grep -q 'not built into' && built_in=0
if [ "$built_in" = 1 ] && command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
  expect_exit 0 "$PERFGATE" run --suites-file "$SUITES" --suite smoke --backend cuda --list
  expect_in out '^rope/backend:cuda/.*impl:fused'
  expect_in out '^attention/.*backend:cuda/.*impl:flash'
  echo "run_without_gpu: a GPU is present; checked that the cuda cases are planned"
  exit 0
fi

expect_exit 3 "$PERFGATE" run --suites-file "$SUITES" --suite smoke --backend cuda --no-store \
  --output "$WORK/cuda.json"
expect_in err '^perfgate: backend cuda: (no CUDA device on this machine|not built into this perfgate)$'
[ "$(wc -l <"$WORK/err")" -eq 1 ] || fail "expected one line on stderr"
[ ! -e "$WORK/cuda.json" ] || fail "a refused run must write no document"
[ ! -d "$WORK/perfgate-results" ] || fail "a refused run must write nothing"
expect_exit 3 "$PERFGATE" run --suites-file "$SUITES" --suite smoke --backend cuda --list
expect_in err 'backend cuda'

# auto: the smoke suite names cpu and cuda; only the CPU cases run.
expect_exit 0 "$PERFGATE" run --suites-file "$SUITES" --suite smoke --backend auto --filter 'rope' \
  --no-store --output "$WORK/auto.json"
python3 - "$WORK/auto.json" <<'PY'
import json, sys
pg = json.load(open(sys.argv[1]))["perfgate"]
run = pg["run"] if "run" in pg else pg
assert run["metadata"]["backends"] == ["cpu"], run["metadata"]["backends"]
results = pg["results"]
assert results and {r["params"]["backend"] for r in results} == {"cpu"}, results
assert {r["status"] for r in results} == {"ok"}, [r.get("message") for r in results]
PY
# auto with a suite that names only cuda: nothing to run here, refused before writing.
expect_exit 2 "$PERFGATE" run --suites-file "$SUITES" --suite premerge --backend auto --no-store \
  --output "$WORK/premerge.json"
[ ! -e "$WORK/premerge.json" ] || fail "an empty plan must write no document"
