#!/usr/bin/env bash
# A gate that flags a case prints the command that measures it again: under the terminal table,
# in the Markdown evidence and as the verdict's `rerun` in report.json, with the gate's measuring
# options; a series that passed gets none. The printed command, run by a shell, measures exactly
# that case.
source "$(dirname "$0")/../lib.sh"
export PERFGATE_SUITES_FILE="$TEST_DATA/microbench/suites.toml"
phased_perfgate "$WORK/slow" 0 "" "PERFGATE_TEST_SLOWDOWN=softmax:20"

expect_exit 1 "$PERFGATE" gate --suite tiny --blocks 2 --confirm-blocks 0 --backend cpu --no-ceilings \
  --baseline-bin "$PERFGATE" --candidate-bin "$WORK/slow" --output-dir "$WORK/gate" --db "$WORK/absent.db"
case='softmax/backend:cpu/cols:512/dtype:f32/impl:fused/rows:64'
command="perfgate run --suite tiny --no-store --filter '^(?:$case)\$' --backend cpu --no-ceilings"
grep -qxF "measure $case@time again: $command" "$WORK/out" || { cat "$WORK/out"; fail "the terminal's command"; }
grep -qF "Measure again: \`$command\`" "$WORK/gate/report.md" || { cat "$WORK/gate/report.md"; fail "the Markdown's command"; }
# Only flagged series (REGRESSION or FAILED) get a command. On a loaded machine two blocks may
# flag another case too: then it has its command as well, and every series that passed has none.
python3 - "$WORK/gate/report.json" "$command" "$WORK/out" <<'PY' || fail "only the flagged series get a command"
import json, re, sys
d = json.load(open(sys.argv[1]))
by_kind = {v["series_id"]: (v["verdict"], v.get("rerun")) for v in d["verdicts"]}
assert by_kind["softmax/backend:cpu/cols:512/dtype:f32/impl:fused/rows:64@time"] == ("REGRESSION", sys.argv[2]), by_kind
flagged = {s for s, (k, r) in by_kind.items() if k in ("REGRESSION", "FAILED")}
assert all((r is not None) == (s in flagged) for s, (k, r) in by_kind.items()), by_kind
printed = {m.group(1) for m in re.finditer(r"^measure (\S+) again: ", open(sys.argv[3]).read(), re.M)}
again_lines = [l for l in open(sys.argv[3]) if "again" in l]
assert printed == flagged and len(again_lines) == len(flagged), (printed, flagged, again_lines)
PY

# The command as printed, read by a shell: it measures that case, and only it.
mkdir -p "$WORK/bin"
ln -s "$PERFGATE" "$WORK/bin/perfgate"
PATH="$WORK/bin:$PATH" expect_exit 0 bash -c "$command --output again.json"
python3 - "$WORK/again.json" "$case" <<'PY' || fail "the rerun measured something else"
import json, sys
results = json.load(open(sys.argv[1]))["perfgate"]["results"]
names = ["/".join([r["family"]] + [f"{k}:{v}" for k, v in sorted(r["params"].items())]) for r in results]
assert names == [sys.argv[2]], names
PY
echo "gate_rerun: ok"
