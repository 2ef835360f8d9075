# Every command that only reads the store (the gate's mode) leaves its bytes unchanged, whatever
# it exits with; the writers' library-level refusal is in reliability_store_tests.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/store_checks.sh"
make_documents 2 10 5 doc
DB="$WORK/store.db"
"$PERFGATE" ingest --db "$DB" doc-1.json doc-2.json >/dev/null
before=$(sha256sum <"$DB")
id='reliability/case:0/size:1@time'
tried=0
for args in "history $id" "history --format json --samples $id" "store info" "store export" \
            "baseline list" "baseline show nightly" "detect" "report" "compare --no-save latest~1 latest" \
            "gate --baseline latest~1" "store backup $WORK/copy.db"; do
  # shellcheck disable=SC2086
  "$PERFGATE" $args --db "$DB" >/dev/null 2>&1 || true
  tried=$((tried + 1))
  [ "$(sha256sum <"$DB")" = "$before" ] || fail "'perfgate $args' changed the store"
  [ ! -s "$DB-wal" ] || fail "'perfgate $args' left a write-ahead log"
done
echo "read_only_cli: $tried read-only command lines, store bytes unchanged"
