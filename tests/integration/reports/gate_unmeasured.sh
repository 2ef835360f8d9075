#!/usr/bin/env bash
# A confirming block that does not measure an alarmed case: the candidate is twenty times slower
# on the test-only fault family, and the baseline build's confirming processes crash in that
# case. The alarm is then NOT_COMPARABLE (exit 3), not judged again on the first blocks, and
# the report names the blocks that missed it and why.
source "$(dirname "$0")/../lib.sh"
# (Twenty, not three: two blocks a side of a tiny case under AddressSanitizer spread so widely
# that the tolerance reached +110 % and a threefold slowdown raised no alarm to confirm.)
# AddressSanitizer turns a SIGSEGV into a report and exit 1; the case must end by the signal.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0"
export PERFGATE_SUITES_FILE="$TEST_DATA/reliability/suites_isolation.toml"

# The baseline's first two processes copy; from the third on (the confirming ones) they crash.
phased_perfgate "$WORK/crashes-later" 2 PERFGATE_TEST_FAULT=none PERFGATE_TEST_FAULT=crash
phased_perfgate "$WORK/slow" 0 "" "PERFGATE_TEST_FAULT=none PERFGATE_TEST_SLOWDOWN=test_fault:20"

expect_exit 3 "$PERFGATE" gate --suite isolation --filter test_fault --blocks 2 --confirm-blocks 2 \
  --baseline-bin "$WORK/crashes-later" --candidate-bin "$WORK/slow" --output-dir "$WORK/gate" \
  --db "$WORK/absent.db"
expect_in err 'confirming with 2 more block\(s\)'
[ "$(invocations "$WORK/crashes-later")" -eq 4 ] ||
  fail "expected 2 + 2 baseline processes, got $(invocations "$WORK/crashes-later")"
python3 - "$WORK/gate/report.json" <<'PY' || fail "report.json of the unmeasured confirmation"
import json, re, sys
d = json.load(open(sys.argv[1]))
assert d["status"] == "NOT COMPARABLE", d["status"]
[v] = [v for v in d["verdicts"] if v["series_id"].startswith("test_fault/")]
assert v["verdict"] == "NOT_COMPARABLE" and v["reason"] == "confirmation_not_measured", v
c = v["details"]["confirmation"]
assert c["first"]["verdict"] == "REGRESSION" and c["outcome"] == "not_measured", c
assert c["measured_blocks"] == {"baseline": 0, "candidate": 2}, c
assert len(c["unmeasured"]) == 2, c["unmeasured"]
for line, block in zip(c["unmeasured"], (3, 4)):
    assert re.fullmatch(rf"baseline block {block}: crashed \(measuring process ended by .*\)", line), line
PY
grep -q 'not measured again: baseline 0, candidate 2 of 2 confirming blocks (baseline block 3: crashed (measuring process ended by' \
  "$WORK/gate/report.md" || { cat "$WORK/gate/report.md"; fail "the evidence does not say why"; }
