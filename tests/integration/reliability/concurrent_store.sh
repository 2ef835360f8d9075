# 8 concurrent `perfgate ingest` writers (distinct documents) and 8 `perfgate history` readers on
# one store: every write succeeds, every run arrives whole, every read succeeds.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/store_checks.sh"
WRITERS=8 READERS=8 PER_WRITER=3 SERIES=50 SAMPLES=20
DOCS=$((WRITERS * PER_WRITER))
make_documents "$DOCS" "$SERIES" "$SAMPLES" doc
DB="$WORK/store.db"
"$PERFGATE" ingest --db "$DB" doc-template.json >/dev/null  # readers need a store to read

pids=()
for ((w = 0; w < WRITERS; w++)); do
  ( for ((k = 1; k <= PER_WRITER; k++)); do
      "$PERFGATE" ingest --db "$DB" "doc-$((w * PER_WRITER + k)).json" >/dev/null 2>"writer-$w.err" ||
        { echo "writer $w doc $k: exit $?" >>"writer-$w.err"; exit 1; }
    done ) &
  pids+=($!)
done
for ((r = 0; r < READERS; r++)); do
  ( for ((k = 1; k <= PER_WRITER; k++)); do
      "$PERFGATE" history --db "$DB" --format json 'reliability/case:0/size:1@time' >"reader-$r.out" \
        2>"reader-$r.err" || { echo "reader $r pass $k: exit $?" >>"reader-$r.err"; exit 1; }
      python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "reader-$r.out" ||
        { echo "reader $r: output is not JSON" >>"reader-$r.err"; exit 1; }
    done ) &
  pids+=($!)
done
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=$((failed + 1)); done
[ "$failed" -eq 0 ] || { cat writer-*.err reader-*.err; fail "$failed writer/reader process(es) failed"; }

integrity_ok "$DB"
runs=$(runs_whole "$DB" "$SERIES" "$SAMPLES")
[ "$runs" -eq $((DOCS + 1)) ] || fail "expected $((DOCS + 1)) runs, found $runs"
rows=$(sqlite3 "$DB" 'SELECT count(*) FROM results')
[ "$rows" -eq $(((DOCS + 1) * SERIES)) ] || fail "expected $(((DOCS + 1) * SERIES)) result rows, found $rows"
echo "concurrent_store: $WRITERS writers x $PER_WRITER documents and $READERS readers x $PER_WRITER" \
     "reads; $runs runs, $rows result rows, $((rows * SAMPLES)) samples checked; nothing lost"
