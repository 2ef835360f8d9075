# SIGKILL lands at random points of `perfgate ingest` of a large document, ITERATIONS times:
# the store must pass SQLite's integrity check after every kill and hold only whole runs.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/store_checks.sh"
ITERATIONS=${PERFGATE_KILL_ITERATIONS:-200}
SERIES=150
SAMPLES=50

make_documents "$ITERATIONS" "$SERIES" "$SAMPLES" doc
DB="$WORK/store.db"

# How long one whole ingest takes here: kills are spread over 0..1.5x that.
start=$(date +%s%N)
"$PERFGATE" ingest --db "$WORK/timing.db" doc-template.json >/dev/null
ingest_ns=$(( $(date +%s%N) - start ))
echo "one ingest of $SERIES series x $SAMPLES samples: $((ingest_ns / 1000000)) ms"

RANDOM=42  # reproducible kill points
killed=0 finished=0
for ((i = 1; i <= ITERATIONS; i++)); do
  "$PERFGATE" ingest --db "$DB" "doc-$i.json" >/dev/null 2>"$WORK/ingest.err" &
  pid=$!
  delay_us=$(( (RANDOM * 32768 + RANDOM) % (ingest_ns * 3 / 2000 + 1) ))
  sleep "$(printf '0.%06d' "$delay_us")" 2>/dev/null || sleep "$((delay_us / 1000000))"
  if kill -KILL "$pid" 2>/dev/null; then killed=$((killed + 1)); else finished=$((finished + 1)); fi
  wait "$pid" 2>/dev/null || true
  [ -f "$DB" ] || continue  # killed before the store was created
  integrity_ok "$DB"
  runs_whole "$DB" "$SERIES" "$SAMPLES" >/dev/null
done
runs=$(runs_whole "$DB" "$SERIES" "$SAMPLES")
# The killed ingests are retried: each must now complete, and nothing was lost or doubled.
"$PERFGATE" ingest --db "$DB" doc-[0-9]*.json >/dev/null
integrity_ok "$DB"
total=$(runs_whole "$DB" "$SERIES" "$SAMPLES")
[ "$total" -eq "$ITERATIONS" ] || fail "expected $ITERATIONS runs after retries, found $total"
echo "kill_during_ingest: $ITERATIONS iterations, $killed killed mid-ingest, $finished finished first;" \
     "$runs whole runs survived the kills, $total after retries; integrity ok every time"
