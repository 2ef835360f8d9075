# Store checks shared by the reliability scripts (sourced after ../lib.sh).
# Every run in the store must be whole: SERIES results and SERIES sample rows holding
# SERIES*SAMPLES doubles. Uses the store's schema v1 tables (runs, results, samples).

# integrity_ok DB: SQLite's own consistency check of the file.
integrity_ok() {
  local got
  got=$(sqlite3 "$1" 'PRAGMA integrity_check')
  [ "$got" = "ok" ] || fail "integrity_check of $1: $got"
}

# runs_whole DB SERIES SAMPLES: prints the number of runs; fails naming any partial run.
runs_whole() {
  local db=$1 series=$2 samples=$3 partial
  # A kill before the schema's first commit leaves an SQLite file with no tables at all (the
  # schema is created in one transaction); perfgate opens that as a new store. Anything else
  # must have the whole schema, and the queries below need it.
  if [ "$(sqlite3 "$db" 'SELECT count(*) FROM sqlite_master')" -eq 0 ]; then
    echo 0
    return
  fi
  partial=$(sqlite3 "$db" "
    SELECT r.uuid || ' results=' || (SELECT count(*) FROM results x WHERE x.run_id = r.id)
           || ' sample_rows=' || (SELECT count(*) FROM samples s WHERE s.run_id = r.id)
           || ' doubles=' || (SELECT coalesce(sum(length(data)), 0) / 8 FROM samples s WHERE s.run_id = r.id)
    FROM runs r
    WHERE (SELECT count(*) FROM results x WHERE x.run_id = r.id) != $series
       OR (SELECT count(*) FROM samples s WHERE s.run_id = r.id) != $series
       OR (SELECT coalesce(sum(length(data)), 0) FROM samples s WHERE s.run_id = r.id) != $series * $samples * 8;")
  [ -z "$partial" ] || fail "partial run(s) in $db: $partial"
  sqlite3 "$db" 'SELECT count(*) FROM runs'
}

# make_documents COUNT SERIES SAMPLES PREFIX: COUNT documents PREFIX-N.json with distinct uuids.
make_documents() {
  local count=$1 series=$2 samples=$3 prefix=$4 i
  python3 "$SOURCE_DIR/tests/integration/reliability/make_document.py" "$prefix-template.json" \
    --uuid 00000000-0000-4000-8000-000000000000 --series "$series" --samples "$samples"
  for ((i = 1; i <= count; i++)); do
    sed "s/00000000-0000-4000-8000-000000000000/$(printf '00000000-0000-4000-8000-%012d' "$i")/" \
      "$prefix-template.json" > "$prefix-$i.json"
  done
}
