# A store on a full disk: ingest fails with one clear line (exit 2) and the store is unchanged.
# Uses a 3 MiB tmpfs when mounting is permitted, else a file-size limit (RLIMIT_FSIZE).
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/store_checks.sh"
mkdir -p disk
if mount -t tmpfs -o size=3m tmpfs disk 2>/dev/null; then
  trap 'umount "$WORK/disk"; rm -rf "$WORK"' EXIT
  mode="3 MiB tmpfs"
  limit() { "$@"; }
else
  mode="RLIMIT_FSIZE 3 MiB"
  # Ignored SIGXFSZ: the write fails with EFBIG instead of killing the process.
  limit() { ( trap '' XFSZ; ulimit -f 3072; exec "$@" ); }
fi
DB="$WORK/disk/store.db"
python3 "$SOURCE_DIR/tests/integration/reliability/make_document.py" small.json \
  --uuid 10000000-0000-4000-8000-000000000001 --series 20 --samples 10
python3 "$SOURCE_DIR/tests/integration/reliability/make_document.py" big.json \
  --uuid 10000000-0000-4000-8000-000000000002 --series 3000 --samples 200
limit "$PERFGATE" ingest --db "$DB" small.json >/dev/null
before=$(sqlite3 "$DB" .dump | sha256sum)

expect_exit 2 limit "$PERFGATE" ingest --db "$DB" big.json
[ "$(wc -l <"$WORK/err")" -eq 1 ] || fail "expected one error line, got: $(cat "$WORK/err")"
expect_in err "full|space|too large|EFBIG"
expect_in err "store.db"
integrity_ok "$DB"
after=$(sqlite3 "$DB" .dump | sha256sum)
[ "$before" = "$after" ] || fail "the store changed after the failed ingest"
echo "disk_full ($mode): ingest refused with: $(cat "$WORK/err")"
