#!/usr/bin/env bash
# `perfgate run` and the cuda backend on a machine without a GPU. Naming the backend is refused
# with one line before anything is written: exit 4 (no device) where the cuda backend is built,
# exit 2 (a tool error) in a CPU-only build. `--backend auto` runs the suite's CPU cases only and
# says once, on stderr and in the run metadata, why the cuda cases were left out. With a GPU the
# cuda cases are listed instead.
source "$(dirname "$0")/../lib.sh"
SUITES="$SOURCE_DIR/suites/suites.toml"
built_in=1
# (Output captured first: under pipefail the refusal's non-zero exit would hide grep's match.)
probe=$("$PERFGATE" run --suites-file "$SUITES" --suite smoke --backend cuda --list 2>&1 || true)
grep -q 'not built into' <<<"$probe" && built_in=0
if [ "$built_in" = 1 ] && command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
  expect_exit 0 "$PERFGATE" run --suites-file "$SUITES" --suite smoke --backend cuda --list
  expect_in out '^rope/backend:cuda/.*impl:fused'
  expect_in out '^attention/.*backend:cuda/.*impl:flash'
  expect_exit 0 "$PERFGATE" run --suites-file "$SUITES" --suite smoke --backend auto --list
  expect_not_in err 'cases are not run'
  # Cold and graph cases: the cuda backend's only, each its own series.
  expect_exit 0 "$PERFGATE" run --suites-file "$SUITES" --suite smoke --backend auto --timing hot,cold,graph --filter rope --list
  expect_in out '^rope/backend:cuda/.*impl:fused/.*timing:cold'
  expect_in out '^rope/backend:cuda/.*impl:fused/.*timing:graph'
  expect_not_in out 'backend:cpu/.*timing:'
  echo "run_without_gpu: a GPU is present; checked that the cuda cases are planned"
  exit 0
fi

if [ "$built_in" = 1 ]; then
  refused=4 why='no CUDA device on this machine' missing='no CUDA device'
else
  refused=2 why='not built into this perfgate' missing='backend cuda is not built in'
fi
expect_exit "$refused" "$PERFGATE" run --suites-file "$SUITES" --suite smoke --backend cuda --no-store \
  --output "$WORK/cuda.json"
expect_in err "^perfgate: backend cuda: $why\$"
[ "$(wc -l <"$WORK/err")" -eq 1 ] || fail "expected one line on stderr"
[ ! -e "$WORK/cuda.json" ] || fail "a refused run must write no document"
[ ! -d "$WORK/perfgate-results" ] || fail "a refused run must write nothing"
expect_exit "$refused" "$PERFGATE" run --suites-file "$SUITES" --suite smoke --backend cuda --list
expect_in err 'backend cuda'
expect_exit "$refused" "$PERFGATE" run --suites-file "$SUITES" --suite smoke --backend cuda --timing cold --list
expect_in err 'backend cuda'

# --timing cold or graph for the cpu backend: a usage error in one line, nothing written; a
# mode that does not exist likewise.
expect_exit 2 "$PERFGATE" run --suites-file "$SUITES" --suite smoke --backend cpu --timing cold --no-store \
  --output "$WORK/cold.json"
has='cuda has'; [ "$built_in" = 1 ] || has='no backend built in has'  # a build without CUDA
[ "$(cat "$WORK/err")" = "perfgate: --timing cold: backend cpu has no cold mode ($has)" ] \
  || { cat "$WORK/err"; fail "expected one line naming --timing and the backend"; }
[ ! -e "$WORK/cold.json" ] || fail "a refused --timing cold wrote a document"
expect_exit 2 "$PERFGATE" run --suites-file "$SUITES" --suite smoke --backend cpu --timing hot,graph --list
expect_in err "^perfgate: --timing graph: backend cpu has no graph mode \($has\)\$"
expect_exit 2 "$PERFGATE" run --suites-file "$SUITES" --suite smoke --backend cpu --timing warm --list
expect_in err "^perfgate: --timing: warm not in \{hot,cold,graph\}\$"
# hot is what every run measured before timing modes: the same cases, the same names, also for
# the smoke family listed in every mode.
expect_exit 0 "$PERFGATE" run --suites-file "$SUITES" --suite smoke --backend cpu --list
cp "$WORK/out" "$WORK/default.list"
expect_not_in out 'timing:'
expect_exit 0 "$PERFGATE" run --suites-file "$SUITES" --suite smoke --backend cpu --timing hot --list
cmp -s "$WORK/out" "$WORK/default.list" || fail "--timing hot changed the planned cases"

# auto: the smoke suite names cpu and cuda; only the CPU cases run, and the run says why once.
note="$missing: the suite's cuda cases are not run (using cpu)"
expect_exit 0 "$PERFGATE" run --suites-file "$SUITES" --suite smoke --backend auto --filter 'rope' \
  --no-store --output "$WORK/auto.json"
[ "$(grep -cxF "perfgate: $note" "$WORK/err")" -eq 1 ] || { cat "$WORK/err"; fail "expected the note once on stderr"; }
python3 - "$WORK/auto.json" "$note" <<'PY'
import json, sys
pg = json.load(open(sys.argv[1]))["perfgate"]
run = pg["run"] if "run" in pg else pg
assert run["metadata"]["backends"] == ["cpu"], run["metadata"]["backends"]
assert run["metadata"]["unavailable_backends"] == [sys.argv[2]], run["metadata"]
results = pg["results"]
assert results and {r["params"]["backend"] for r in results} == {"cpu"}, results
assert {r["status"] for r in results} == {"ok"}, [r.get("message") for r in results]
PY
# --list says it too, on stderr, keeping stdout a plain list of cases.
expect_exit 0 "$PERFGATE" run --suites-file "$SUITES" --suite smoke --backend auto --filter 'rope' --list
[ "$(grep -cxF "perfgate: $note" "$WORK/err")" -eq 1 ] || { cat "$WORK/err"; fail "expected the note once with --list"; }
expect_not_in out 'not run'

# auto with a suite that names only cuda: nothing can run here; refused like naming the backend,
# in one line, before writing.
expect_exit "$refused" "$PERFGATE" run --suites-file "$SUITES" --suite premerge --backend auto --no-store \
  --output "$WORK/premerge.json"
[ "$(cat "$WORK/err")" = "perfgate: suite 'premerge': $missing: the suite's cuda cases are not run (nothing else to run)" ] \
  || { cat "$WORK/err"; fail "expected one line naming the suite and the missing device"; }
[ ! -e "$WORK/premerge.json" ] || fail "an empty plan must write no document"
