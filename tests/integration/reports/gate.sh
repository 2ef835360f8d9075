#!/usr/bin/env bash
# perfgate gate end to end on a CPU family: two "builds" where the candidate is slower
# (PERFGATE_TEST_SLOWDOWN, set only in the candidate's wrapper) → exit 1 and the regression in
# the Markdown; identical builds → exit 0 and no REGRESSION row, over several repeats.
source "$(dirname "$0")/../lib.sh"
# A gate whose exit was not the expected one: each report's verdicts with their reasons and
# confirmation records, so that a failure in CI explains itself.
explain_failure() {
  python3 - "$WORK" <<'PY'
import json, pathlib, sys
for report in sorted(pathlib.Path(sys.argv[1]).glob("*/report.json")):
    print(f"--- {report}")
    for v in json.load(open(report))["verdicts"]:
        d = v.get("details", {})
        print(v["series_id"], v["verdict"], v["reason"],
              json.dumps({k: d[k] for k in ("confirmation", "block_test", "differing_keys") if k in d}))
PY
}

# 4 a side: the fewest the block test can use at alpha 0.05; 2 more to confirm an alarm.
SUITE=(--suite smoke --blocks 4 --confirm-blocks 2)

# A slower build of the same code: the microbench test hook, for the softmax family only.
printf '#!/bin/sh\nPERFGATE_TEST_SLOWDOWN=softmax:3 exec "%s" "$@"\n' "$PERFGATE" >"$WORK/slow-perfgate"
chmod +x "$WORK/slow-perfgate"

expect_exit 1 "$PERFGATE" gate "${SUITE[@]}" --filter softmax --baseline-bin "$PERFGATE" \
  --candidate-bin "$WORK/slow-perfgate" --output-dir "$WORK/slow" --db "$WORK/absent.db"
grep -qE '^\| \*\*REGRESSION\*\* \| softmax/' "$WORK/slow/report.md" || { cat "$WORK/slow/report.md"; fail "no regression row"; }
expect_in out 'perfgate REGRESSION'
xmllint --noout --schema "$TEST_DATA/reports/junit.xsd" "$WORK/slow/junit.xml"
grep -q '<failure message="REGRESSION: +' "$WORK/slow/junit.xml" || fail "no JUnit failure with numbers"
python3 - "$WORK/slow/report.json" <<'PY' || fail "report.json of the slow gate"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["status"] == "REGRESSION", d["status"]
regressions = [v for v in d["verdicts"] if v["verdict"] == "REGRESSION"]
assert regressions
for v in regressions:
    t = v["details"]["block_test"]  # both builds' 4 + 2 blocks, every candidate block slower:
    assert t["baseline_blocks"] == 6 and t["candidate_blocks"] == 6, t
    assert abs(t["p_value"] - 2 / 924) < 1e-12, t  # the smallest p of 6 against 6
    c = v["details"]["confirmation"]
    assert c["added_blocks"] == 2 and c["first"]["verdict"] == "REGRESSION", c
    assert c["outcome"] == "confirmed", c
    assert c["measured_blocks"] == {"baseline": 2, "candidate": 2}, c
PY
grep -q 'confirmed with 2 more blocks (first look REGRESSION +' "$WORK/slow/junit.xml" || fail "no confirmation in the JUnit evidence"
[ "$(ls "$WORK/slow/runs" | wc -l)" -eq 12 ] || fail "expected 4 + 2 baseline and candidate block documents"
expect_in err 'confirming with 2 more block\(s\)'
# The confirming processes measured the alarmed cases and nothing else.
python3 - "$WORK/slow/report.json" "$WORK/slow/runs" <<'PY' || fail "confirmation blocks measured other cases"
import json, sys, pathlib
alarmed = {v["series_id"].rsplit("@", 1)[0] for v in json.load(open(sys.argv[1]))["verdicts"]
           if "confirmation" in v["details"]}
assert alarmed
for name in ("baseline-5.json", "candidate-5.json", "baseline-6.json", "candidate-6.json"):
    doc = json.load(open(pathlib.Path(sys.argv[2]) / name))
    measured = {b["name"] for b in doc["benchmarks"]}
    assert measured == alarmed, (name, sorted(measured ^ alarmed))
PY

# --confirm-blocks 0: the first look's alarm stands, and no process runs after the first blocks.
expect_exit 1 "$PERFGATE" gate --suite smoke --blocks 5 --confirm-blocks 0 --filter softmax \
  --baseline-bin "$PERFGATE" --candidate-bin "$WORK/slow-perfgate" --output-dir "$WORK/no-confirm" \
  --db "$WORK/absent.db"
[ "$(ls "$WORK/no-confirm/runs" | wc -l)" -eq 10 ] || fail "--confirm-blocks 0 ran more than 5 + 5 blocks"
! grep -q '"confirmation"' "$WORK/no-confirm/report.json" || fail "--confirm-blocks 0 recorded a confirmation"
grep -q 'REGRESSION' "$WORK/no-confirm/report.md" || fail "--confirm-blocks 0 lost the regression"

# Advisory, through scripts/premerge as CI calls it: the same verdicts, exit 0, and the
# Markdown appended to the job summary.
export GITHUB_STEP_SUMMARY="$WORK/summary.md"
expect_exit 0 "$SOURCE_DIR/scripts/premerge" --perfgate "$PERFGATE" --out "$WORK/advisory" --advisory -- \
  "${SUITE[@]}" --filter softmax --baseline-bin "$PERFGATE" --candidate-bin "$WORK/slow-perfgate" \
  --db "$WORK/absent.db"
unset GITHUB_STEP_SUMMARY
grep -q 'REGRESSION' "$WORK/advisory/report.md" || fail "advisory report lost the regression"
cmp -s "$WORK/advisory/report.md" "$WORK/summary.md" || fail "the job summary is not the gate's Markdown"
expect_in err 'advisory mode: exit 1 reported as 0'

# Identical builds: no regression, repeatedly, at the default number of blocks (5: at 3, one
# gate in eight raised a false alarm on a 2-core machine whose processes land in two modes).
for i in 1 2 3; do
  expect_exit 0 "$PERFGATE" gate --suite smoke --filter 'softmax|rmsnorm' --baseline-bin "$PERFGATE" \
    --output-dir "$WORK/same-$i" --db "$WORK/absent.db"
  # 5 rounds of both builds (and more, of an alarmed case only, if a first look raised one).
  [ "$(ls "$WORK/same-$i/runs" | grep -c -- '-[1-5]\.json$')" -eq 10 ] || fail "expected 5 baseline + 5 candidate blocks"
  ! grep -q 'REGRESSION' "$WORK/same-$i/report.md" || { cat "$WORK/same-$i/report.md"; fail "identical builds: REGRESSION (repeat $i)"; }
done

# A slowdown that does not come back: the candidate is slow in its first two processes only.
# Both builds' next three processes are alike, the comparison over all five blocks does not
# raise the alarm again, and the gate passes with the alarm recorded as not confirmed.
phased_perfgate "$WORK/slow-at-first" 2 PERFGATE_TEST_SLOWDOWN=softmax:5 ""
expect_exit 0 "$PERFGATE" gate --suite smoke --filter softmax --blocks 2 --confirm-blocks 3 \
  --baseline-bin "$PERFGATE" --candidate-bin "$WORK/slow-at-first" --output-dir "$WORK/transient" \
  --db "$WORK/absent.db"
expect_in err 'confirming with 3 more block\(s\)'
[ "$(invocations "$WORK/slow-at-first")" -eq 5 ] ||
  fail "expected 2 + 3 candidate processes, got $(invocations "$WORK/slow-at-first")"
python3 - "$WORK/transient/report.json" <<'PY' || fail "report.json of the transient slowdown"
import json, sys
d = json.load(open(sys.argv[1]))
assert not [v for v in d["verdicts"] if v["verdict"] == "REGRESSION"], d["status"]
withdrawn = [v for v in d["verdicts"] if v["reason"] == "alarm_not_confirmed"]
assert withdrawn, [(v["series_id"], v["verdict"], v["reason"]) for v in d["verdicts"]]
for v in withdrawn:
    assert v["verdict"] == "INCONCLUSIVE", v["verdict"]
    assert v["details"]["confirmation"]["first"]["verdict"] == "REGRESSION", v["details"]
PY

# Usage errors: exit 2, one line naming the input, no report written.
expect_exit 2 "$PERFGATE" gate --baseline-bin "$WORK/nope" --output-dir "$WORK/bad" --db "$WORK/absent.db"
expect_in err "--baseline-bin: '$WORK/nope' is not an executable file"
[ ! -e "$WORK/bad" ] || fail "a failed gate left $WORK/bad behind"
expect_exit 2 "$PERFGATE" gate --format markdown,pdf --baseline-bin "$PERFGATE" --output-dir "$WORK/bad"
expect_in err "unknown format 'pdf'"
expect_exit 2 "$PERFGATE" gate --confirm-blocks 2.5 --baseline-bin "$PERFGATE" --output-dir "$WORK/bad"
expect_in err "--confirm-blocks: '2.5' is not an integer"
expect_exit 2 "$PERFGATE" gate --confirm-blocks -1 --baseline-bin "$PERFGATE" --output-dir "$WORK/bad"
expect_in err "--confirm-blocks: -1 is outside 0 to 100"
[ ! -e "$WORK/bad" ] || fail "a gate with a bad option left $WORK/bad behind"
# No baseline build and no store: the store cannot be opened read-only.
expect_exit 2 "$PERFGATE" gate --filter softmax --suite smoke --output-dir "$WORK/bad" --db "$WORK/absent.db"
[ ! -e "$WORK/absent.db" ] || fail "a read-only gate created the store"

# Against the store's baseline (store opened read-only): the slower candidate regresses.
"$PERFGATE" run --suite smoke --filter softmax --db "$WORK/store.db" --trigger nightly >/dev/null 2>&1
"$PERFGATE" baseline --db "$WORK/store.db" set premerge --run latest >/dev/null
before=$(sha256sum "$WORK/store.db")
expect_exit 1 "$PERFGATE" gate --suite smoke --filter softmax --blocks 2 --candidate-bin "$WORK/slow-perfgate" \
  --db "$WORK/store.db" --output-dir "$WORK/store-gate"
grep -qE '^\| \*\*REGRESSION\*\* \| softmax/' "$WORK/store-gate/report.md" || fail "no regression against the store"
# Confirmed with the default 5 more candidate processes (there are no baseline processes).
for i in 3 4 5 6 7; do [ -e "$WORK/store-gate/runs/candidate-$i.json" ] || fail "no confirming candidate block $i"; done
python3 - "$WORK/store-gate/report.json" <<'PY' || fail "report.json of the store gate"
import json, sys
d = json.load(open(sys.argv[1]))
regressions = [v for v in d["verdicts"] if v["verdict"] == "REGRESSION"]
assert regressions
for v in regressions:
    c = v["details"]["confirmation"]
    assert c["outcome"] == "confirmed" and c["measured_blocks"] == {"candidate": 5}, c
PY
[ "$before" = "$(sha256sum "$WORK/store.db")" ] || fail "the gate changed the store"
