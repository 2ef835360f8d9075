#!/usr/bin/env bash
# `perfgate compare` on runs in the store: selectors, default baseline latest~1, exit codes.
source "$(dirname "$0")/../lib.sh"
GEN="$TEST_DATA/regress/make_gbench.py"
DB="$WORK/store.db"
python3 "$GEN" a.json 1 "2026-01-01 00:00:00" BM_Slow=100 BM_Same=200
python3 "$GEN" b.json 2 "2026-01-02 00:00:00" BM_Slow=100 BM_Same=200
python3 "$GEN" c.json 3 "2026-01-03 00:00:00" BM_Slow=115 BM_Same=200
for f in a b c; do "$PERFGATE" ingest --db "$DB" "$f.json" >/dev/null; done

# Only --candidate: the baseline is latest~1 (b), and c regressed against it.
expect_exit 1 "$PERFGATE" compare --db "$DB" --candidate latest
expect_in out "REGRESSION"
expect_exit 0 "$PERFGATE" compare --db "$DB" latest~2 latest~1
expect_in out "SAME"
# A file against a stored run.
expect_exit 1 "$PERFGATE" compare --db "$DB" latest~1 c.json

# A selector that names nothing: exit 2, one line.
expect_exit 2 "$PERFGATE" compare --db "$DB" latest~9 latest
[ "$(wc -l < "$WORK/err")" -eq 1 ] || { cat "$WORK/err"; fail "expected one line on stderr"; }
expect_exit 2 "$PERFGATE" compare --db "$WORK/absent.db" latest~1 latest
echo "ok"
