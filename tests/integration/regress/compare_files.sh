#!/usr/bin/env bash
# `perfgate compare old.json new.json`: Google Benchmark files, no store at all.
source "$(dirname "$0")/../lib.sh"
GEN="$TEST_DATA/regress/make_gbench.py"
python3 "$GEN" old.json 1 "2026-01-01 00:00:00" BM_Slow=100 BM_Same=200 BM_Fast=300
python3 "$GEN" new.json 2 "2026-01-02 00:00:00" BM_Slow=112 BM_Same=200 BM_Fast=250

expect_exit 1 "$PERFGATE" compare old.json new.json --db "$WORK/no-store.db"
expect_in out "BM_Slow"
expect_in out "REGRESSION"
expect_in out "IMPROVEMENT"
[ ! -e "$WORK/no-store.db" ] || fail "compare of two files created a store"

# A wide floor turns the 12 % slowdown into no regression.
expect_exit 0 "$PERFGATE" compare old.json new.json --floor 0.5 --db "$WORK/no-store.db"

# Machine-readable output to one file, written whole.
expect_exit 1 "$PERFGATE" compare --baseline old.json --candidate new.json --format json -o verdicts.json \
  --db "$WORK/no-store.db"
python3 - verdicts.json <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
text = json.dumps(doc)
assert "REGRESSION" in text and "BM_Slow" in text, text[:400]
PY

# Google Benchmark's own inputs: one repetition per side is never a verdict, but never a crash.
expect_exit 0 "$PERFGATE" compare "$CORPUS/gbench/test1_run1.json" "$CORPUS/gbench/test1_run2.json" \
  --db "$WORK/no-store.db"
expect_in out "INCONCLUSIVE"
expect_not_in out "REGRESSION"

# Bad input: one clear line, exit 2.
expect_exit 2 "$PERFGATE" compare old.json missing.json --db "$WORK/no-store.db"
[ "$(wc -l < "$WORK/err")" -eq 1 ] || { cat "$WORK/err"; fail "expected one line on stderr"; }
expect_in err "no-store.db|missing.json"
echo '{"benchmarks": [' > broken.json
expect_exit 2 "$PERFGATE" compare old.json broken.json --db "$WORK/no-store.db"
expect_in err "broken.json"
expect_exit 2 "$PERFGATE" compare old.json --db "$WORK/no-store.db"
echo "ok"
