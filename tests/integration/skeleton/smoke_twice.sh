# The walking skeleton end to end: `run --suite smoke` twice into one store, then `compare` on
# the two runs prints a table and exits 0; the document validates against the written schema
# and reads as Google Benchmark JSON; a compare against a missing run exits 2 with one line.
source "$(dirname "$0")/../lib.sh"
DB="$WORK/perfgate.db"
# Two families keep this short; the whole smoke suite runs in microbench_run_smoke.
SMOKE=("$PERFGATE" run --suite smoke --filter '^(softmax|gemm)/' --db "$DB")

expect_exit 0 "${SMOKE[@]}" --output "$WORK/first.json"
expect_exit 0 "${SMOKE[@]}" --output "$WORK/second.json"
# This checks the plumbing, not the statistics: microsecond smoke cases measured minutes apart on
# a shared 2-core machine can differ by tens of percent, so a wide floor keeps A/A at exit 0.
# (False-alarm rates are measured by perfgate_eval; the gate's interleaved A/A test is strict.)
expect_exit 0 "$PERFGATE" compare --db "$DB" --baseline latest~1 --candidate latest --floor 1.0
expect_in out "SERIES"
expect_in out "softmax/"
expect_not_in out "REGRESSION"

# The document as written matches core/schema/result-v1.json.
/usr/bin/python3 - "$SOURCE_DIR/core/schema/result-v1.json" "$WORK/second.json" <<'PY'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
jsonschema.validate(doc, schema)
assert doc["benchmarks"], "no Google Benchmark rows"
print("schema: ok,", len(doc["perfgate"]["results"]), "results")
PY

# Its Google Benchmark view carries the same time samples as the perfgate block.
expect_exit 0 "$PERFGATE" ingest --db "$WORK/gbench.db" --format gbench "$WORK/second.json"
expect_in out "ingested"

# A missing run: exit 2, one clear line naming it, the store unchanged.
before=$(sha256sum "$DB")
expect_exit 2 "$PERFGATE" compare --db "$DB" --baseline 00000000-no-such-run --candidate latest
expect_in err "00000000-no-such-run"
[ "$(wc -l <"$WORK/err")" -eq 1 ] || fail "expected one line on stderr"
[ "$(sha256sum "$DB")" = "$before" ] || fail "a failed compare changed the store"
echo "smoke_twice: ok"
