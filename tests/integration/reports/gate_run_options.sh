#!/usr/bin/env bash
# The gate's measuring options: --backend, --timing, --no-ceilings and --wrap reach every `run` process
# of both builds, a timing mode that no backend of the run has is refused naming the mode, and
# a value that is not a mode is refused before anything runs.
source "$(dirname "$0")/../lib.sh"
export PERFGATE_SUITES_FILE="$TEST_DATA/microbench/suites.toml"

# A perfgate that records the arguments of each of its invocations, one line each.
printf '#!/bin/sh\necho "$*" >>"%s.args"\nexec "%s" "$@"\n' "$WORK/recording" "$PERFGATE" >"$WORK/recording"
chmod +x "$WORK/recording"

expect_exit 0 "$PERFGATE" gate --suite tiny --blocks 1 --confirm-blocks 0 --advisory \
  --baseline-bin "$WORK/recording" --candidate-bin "$WORK/recording" --output-dir "$WORK/gate" \
  --db "$WORK/absent.db" --backend cpu --timing hot --no-ceilings --wrap env
[ "$(grep -c ' --backend cpu --timing hot --no-ceilings --wrap=env$' "$WORK/recording.args")" -eq 2 ] ||
  { cat "$WORK/recording.args"; fail "both run processes must get --backend cpu --timing hot --no-ceilings --wrap=env"; }
python3 - "$WORK/gate/runs" <<'PY' || fail "the gate's block documents"
import json, pathlib, sys
docs = sorted(pathlib.Path(sys.argv[1]).glob("*.json"))
assert [d.name for d in docs] == ["baseline-1.json", "candidate-1.json"], docs
for d in docs:
    meta = json.load(open(d))["perfgate"]["run"]["metadata"]
    assert meta["backends"] == ["cpu"], meta
    assert "ceilings" not in meta, meta
    assert meta["wrap"] == ["env"], meta
PY

# Without the options the run processes get none of them, and measure their ceilings.
rm -f "$WORK/recording.args"
expect_exit 0 "$PERFGATE" gate --suite tiny --blocks 1 --confirm-blocks 0 --advisory \
  --baseline-bin "$WORK/recording" --candidate-bin "$WORK/recording" --output-dir "$WORK/plain" \
  --db "$WORK/absent.db"
expect_not_in recording.args '--backend|--timing|--no-ceilings|--wrap'
python3 -c 'import json,sys; assert "ceilings" in json.load(open(sys.argv[1]))["perfgate"]["run"]["metadata"]' \
  "$WORK/plain/runs/candidate-1.json" || fail "a plain gate's run measures its ceilings"

# cold is a mode of the cuda backend only: the first run process refuses it; no report is written.
expect_exit 2 "$PERFGATE" gate --suite tiny --blocks 1 --confirm-blocks 0 --backend cpu --timing cold \
  --baseline-bin "$WORK/recording" --output-dir "$WORK/cold" --db "$WORK/absent.db"
expect_in err 'baseline block 1 .* exit 2'
expect_in err 'timing cold: backend cpu has no cold mode'
[ ! -e "$WORK/cold/report.json" ] || fail "a refused gate wrote a report"

# Not a mode at all: refused by the gate itself, before any process or file.
rm -f "$WORK/recording.args"
expect_exit 2 "$PERFGATE" gate --suite tiny --timing warm --baseline-bin "$WORK/recording" \
  --output-dir "$WORK/warm" --db "$WORK/absent.db"
expect_in err '^perfgate: --timing: warm not in \{hot,cold,graph\}$'
[ ! -e "$WORK/recording.args" ] && [ ! -e "$WORK/warm" ] || fail "a usage error ran or wrote something"
echo "gate_run_options: ok"
