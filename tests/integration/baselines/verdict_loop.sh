#!/usr/bin/env bash
# The loop DESIGN.md §3 asks for: a nightly that regresses is compared (exit 1) and its verdicts
# are saved; `perfgate verdicts` reads them back; the "latest nightly" policy then passes over
# it (and `baseline show` says why), so the next nightly is compared with the last good one.
source "$(dirname "$0")/../lib.sh"
GEN="$TEST_DATA/regress/make_gbench.py"
export PERFGATE_DB="$WORK/store.db"
nightly() {  # nightly N LEVEL
  python3 "$GEN" "n$1.json" "$1" "2026-02-$(printf %02d "$1") 00:00:00" BM_Slow="$2" BM_Flat=50
  "$PERFGATE" ingest --trigger nightly --branch main --commit "c$1" "n$1.json" >/dev/null
}
run_of() {  # uuid of the run with commit $1
  "$PERFGATE" history 'BM_Flat@time' --format json |
    python3 -c "import json,sys; print([p['run'] for p in json.load(sys.stdin)[0]['points'] if p['commit']=='$1'][0])"
}
for n in 1 2 3 4 5; do nightly "$n" 100; done
expect_exit 0 "$PERFGATE" baseline set nightly --latest-nightly-on main
good=$(run_of c5)

# Nightly 6 is 20 % slower: the comparison right after its ingest passes over the candidate
# itself, finds the regression and keeps the verdicts.
nightly 6 120
bad=$(run_of c6)
expect_exit 1 "$PERFGATE" compare baseline:nightly latest
expect_in out "REGRESSION"
expect_exit 0 "$PERFGATE" verdicts latest --format json
python3 - "$WORK/out" "$bad" "$good" <<'PY'
import json, sys
doc, bad, good = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
assert doc["run"] == bad, doc["run"]
by = {v["series_id"]: v for v in doc["verdicts"]}
slow = by["BM_Slow@time"]
assert slow["verdict"] == "REGRESSION" and slow["reason"], slow
assert slow["baseline_runs"] == [good], slow["baseline_runs"]
assert slow["n_baseline"] == 10 and slow["n_candidate"] == 10, slow
assert 1.15 < slow["ratio"] < 1.25 and slow["ratio_low"] > 1 and slow["p_value"] < 0.01, slow
assert slow["p_adjusted"] is not None and slow["tolerance"] > 0, slow
assert by["BM_Flat@time"]["verdict"] == "SAME", by["BM_Flat@time"]
assert len(doc["verdicts"]) == 4, len(doc["verdicts"])
PY
expect_exit 0 "$PERFGATE" verdicts "${bad:0:8}"
expect_in out "REGRESSION +BM_Slow@time"

# The same comparison again replaces its verdicts; --no-save adds nothing; a comparison with
# another baseline adds its own.
expect_exit 1 "$PERFGATE" compare baseline:nightly latest
expect_exit 1 "$PERFGATE" compare latest~2 latest --no-save
expect_exit 0 "$PERFGATE" verdicts latest --format json
python3 -c "import json,sys; n=len(json.load(open('$WORK/out'))['verdicts']); assert n == 4, n"
# Comparing two files saves nothing (and needs no store).
expect_exit 1 "$PERFGATE" compare n5.json n6.json --db "$WORK/absent.db"
[ ! -e "$WORK/absent.db" ] || fail "comparing files created a store"

# The policy now skips nightly 6 and says why.
expect_exit 0 "$PERFGATE" baseline show nightly
expect_in out "${bad:0:8}.*REGRESSION"
expect_in out "-> ${good:0:8}"
nightly 7 100
expect_exit 0 "$PERFGATE" compare baseline:nightly latest --format json -o next.json
python3 -c "
import json; doc = json.load(open('next.json'))
assert doc['baseline_runs'] == ['$good'], doc['baseline_runs']
assert all(v['verdict'] == 'SAME' for v in doc['verdicts']), [v['verdict'] for v in doc['verdicts']]"

# A store file this user may not write is compared without saving, and without failing. As
# root, an unprivileged user plays that user (root may write anything). The folder stays
# writable: SQLite readers of a WAL store need to create its shared-memory file there.
as_reader=()
[ "$(id -u)" -ne 0 ] || as_reader=(setpriv --reuid=65534 --regid=65534 --clear-groups)
[ ! -s "$PERFGATE_DB-wal" ] || fail "saving verdicts left a write-ahead log"
chmod a-w "$PERFGATE_DB"
chmod 777 "$WORK"
before=$(sha256sum <"$PERFGATE_DB")
expect_exit 1 "${as_reader[@]}" "$PERFGATE" compare latest~2 latest~1
expect_in err "read-only: verdicts not saved"
[ "$(sha256sum <"$PERFGATE_DB")" = "$before" ] || fail "a read-only store changed"
[ ! -e "$PERFGATE_DB-wal" ] || [ ! -s "$PERFGATE_DB-wal" ] || fail "a read-only store got a write-ahead log"
chmod u+w "$PERFGATE_DB"

# Reading back: a run without verdicts says so; a selector that names nothing is bad input.
expect_exit 0 "$PERFGATE" verdicts latest~6
expect_in out "0 saved verdict"
expect_exit 2 "$PERFGATE" verdicts latest~9
echo "ok"
