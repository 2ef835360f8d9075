#!/usr/bin/env bash
# Drives the real `perfgate ingest`, `history`, `baseline` and `store` commands on a real store.
source "$(dirname "$0")/../lib.sh"
DATA="$TEST_DATA/baselines"
DB="$WORK/perf.db"
export PERFGATE_DB="$DB"

# A bad file never creates the store.
expect_exit 2 "$PERFGATE" ingest "$DATA/gbench_truncated.json"
expect_in err "gbench_truncated.json"
[ ! -e "$DB" ] || fail "a bad input created the store"

# Google Benchmark JSON (ours, and Google Benchmark's own test input from the shared corpus).
expect_exit 0 "$PERFGATE" ingest "$DATA/gbench_new_interleaved.json" "$CORPUS/gbench/test1_run1.json"
expect_in out "^ingested [0-9a-f-]{36} \([0-9]+ series, [0-9]+ samples\)$"
[ "$(grep -c '^ingested' "$WORK/out")" -eq 2 ] || fail "expected two ingested lines"
GB_UUID=$(head -1 "$WORK/out" | awk '{print $2}')
expect_exit 0 "$PERFGATE" ingest "$DATA/gbench_new_interleaved.json"
expect_in out "^already stored: $GB_UUID$"

# nccl-tests logs with overrides for foreign files.
expect_exit 0 "$PERFGATE" ingest --format nccl-tests --suite collectives --trigger nightly \
  --branch main --commit abc123 "$DATA/nccl_single_node.log" "$DATA/nccl_multi_node.log"
expect_in out "ingested .* \(24 series, 24 samples\)"
# nccl-tests' JSON output, told by its content: the same 24 series as its log.
expect_exit 0 "$PERFGATE" ingest --suite collectives --trigger nightly --branch main \
  --commit abc124 "$DATA/nccl_single_node.json"
expect_in out "^ingested [0-9a-f-]{36} \(24 series, 24 samples\)$"

# A corrupt file, or one of several bad: the store stays byte-for-byte the same.
before=$(cd "$WORK" && sha256sum perf.db*)
expect_exit 2 "$PERFGATE" ingest "$DATA/nccl_old_format.log" "$DATA/nccl_truncated.log"
expect_in err "nccl_truncated.log: line 22"
expect_exit 2 "$PERFGATE" ingest "$DATA/gbench_bad_row.json"
expect_exit 2 "$PERFGATE" ingest --format gbench "$DATA/nccl_single_node.log"
# A start time without its zone (nccl-tests prints local ones), or no date at all.
expect_exit 2 "$PERFGATE" ingest --started-at "2026-11-20 03:12:44" "$DATA/nccl_bitwise.log"
expect_in err "^perfgate: --started-at '2026-11-20 03:12:44': not a date and time with its zone"
expect_exit 2 "$PERFGATE" ingest --started-at 2026-02-30T03:12:44Z "$DATA/nccl_bitwise.log"
# A compressed log is named as such, with how to read it: through standard input.
gzip -c "$DATA/nccl_bitwise.log" > "$WORK/nccl_bitwise.log.gz"
expect_exit 2 "$PERFGATE" ingest "$WORK/nccl_bitwise.log.gz"
expect_in err "^perfgate: .*nccl_bitwise.log.gz: compressed \(gzip\): decompress it first, e.g. zcat FILE \| perfgate ingest -$"
head -5 "$DATA/nccl_bitwise.log" > "$WORK/not_a_log"  # no table
expect_exit 2 "$PERFGATE" ingest - < "$WORK/not_a_log"
expect_in err "^perfgate: standard input: not JSON and no nccl-tests table"
after=$(cd "$WORK" && sha256sum perf.db*)
[ "$before" = "$after" ] || fail "a failed ingest changed the store"
# Decompressed through standard input, the same run as the file itself: stored once.
gzip -dc "$WORK/nccl_bitwise.log.gz" > "$WORK/from_pipe"
expect_exit 0 "$PERFGATE" ingest --db "$WORK/piped.db" - < "$WORK/from_pipe"
expect_in out "^ingested [0-9a-f-]{36} \(18 series, 18 samples\)$"
PIPED_UUID=$(awk '{print $2}' "$WORK/out")
expect_exit 0 "$PERFGATE" ingest --db "$WORK/piped.db" "$DATA/nccl_bitwise.log"
expect_in out "^already stored: $PIPED_UUID$"

# A log ingested after the fact, dated with --started-at (converted to UTC): it takes its place
# in the history before the runs ingested above (it lists the oldest first).
expect_exit 0 "$PERFGATE" ingest --started-at 2025-06-30T23:30:00-01:00 "$DATA/nccl_bitwise.log"
expect_exit 0 "$PERFGATE" history \
  "collectives.all_reduce/bytes:1048576/dtype:f32/inplace:0/redop:sum/root:-1@busbw"
[ "$(grep -c '^  [0-9a-f]\{8\}  ' "$WORK/out")" -ge 2 ] || fail "the history lacks the runs above"
grep -m1 '^  [0-9a-f]\{8\}  ' "$WORK/out" | grep -q '^  [0-9a-f]\{8\}  2025-07-01T00:30:00Z ' ||
  { cat "$WORK/out"; fail "the run dated with --started-at is not the oldest in the history"; }
# A log stamped line by line (ts with its zone) is dated by its first table header's stamp,
# unless --started-at says otherwise.
STAMPED_SERIES="collectives.broadcast/bytes:4096/dtype:f32/inplace:1/redop:none/root:0@busbw"
expect_exit 0 "$PERFGATE" ingest --db "$WORK/stamped.db" "$DATA/nccl_ts_stamped.log"
expect_exit 0 "$PERFGATE" history --db "$WORK/stamped.db" "$STAMPED_SERIES"
expect_in out "^  [0-9a-f]{8}  2026-12-07T22:12:58Z "
expect_exit 0 "$PERFGATE" ingest --db "$WORK/dated.db" --started-at 2026-01-02T03:04:05Z \
  "$DATA/nccl_ts_stamped.log"
expect_exit 0 "$PERFGATE" history --db "$WORK/dated.db" "$STAMPED_SERIES"
expect_in out "^  [0-9a-f]{8}  2026-01-02T03:04:05Z "

# history: text, json, unknown series.
SERIES="BM_copy/arg0:8/arg1:64@time"
expect_exit 0 "$PERFGATE" history "$SERIES"
expect_in out "^$SERIES"
expect_in out "${GB_UUID:0:8} +2024-03-05T09:15:30Z .* 3 +1600 +100 +ok"
expect_exit 0 "$PERFGATE" history --format json --samples "$SERIES"
python3 - "$WORK/out" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
p = doc[0]["points"][0]
assert doc[0]["series"] == "BM_copy/arg0:8/arg1:64@time", doc
assert p["n"] == 3 and p["median"] == 1600 and p["samples"] == [1500, 1600, 1700], p
PY
expect_exit 2 "$PERFGATE" history "no_such_series@time"
expect_in err "unknown series 'no_such_series@time'"

# Nightly perfgate documents for baseline policies.
mkdir -p "$WORK/docs"
python3 - "$WORK/docs" <<'PY'
import json, sys
for i, status in enumerate(["complete", "complete", "partial"]):
    doc = {"context": {}, "benchmarks": [], "perfgate": {"schema_version": 1,
      "run": {"uuid": f"0000000{i}-aaaa-4aaa-8aaa-00000000000{i}", "suite": "nightly",
              "trigger": "nightly", "code": {"repo": "r", "branch": "main", "commit": f"c{i}"},
              "started_at": f"2026-01-0{i+1}T02:00:00Z", "status": status},
      "fingerprint": {"comparable": {"cpu.model": "X"}},
      "results": [{"family": "gemm", "params": {"m": "64"}, "metric": "time", "unit": "ns",
                   "samples": [100 + i, 101 + i, 102 + i]}]}}
    json.dump(doc, open(f"{sys.argv[1]}/run{i}.json", "w"))
PY
expect_exit 0 "$PERFGATE" ingest "$WORK"/docs/run*.json
expect_exit 0 "$PERFGATE" baseline set main-nightly --latest-nightly-on main --suite nightly
expect_in out "latest complete nightly on main"
expect_exit 0 "$PERFGATE" baseline show main-nightly
expect_in out "00000001 .*skipped 00000002.*status partial"
expect_exit 0 "$PERFGATE" baseline set pinned --run 00000000
expect_exit 0 "$PERFGATE" baseline set pool --pooled-last 2 --branch main --suite nightly
expect_exit 2 "$PERFGATE" baseline set both --run latest --pooled-last 2
expect_in err "exactly one of"
expect_exit 0 "$PERFGATE" baseline ack 'gemm/*@time' --reason "new cuBLAS" --expires 2099-12-31 \
  --expected-ratio 1.05 --author alice
expect_in out "ack #1: gemm/\*@time until 2099-12-31 \(alice\)"
expect_exit 2 "$PERFGATE" baseline ack 'gemm/*' --reason x --expires tomorrow
expect_in err "expected a date YYYY-MM-DD"
expect_exit 0 "$PERFGATE" baseline list
expect_in out "^main-nightly +latest complete nightly on main"
expect_in out "^pinned +pinned run 00000000-aaaa"
expect_in out "#1 gemm/\*@time \(by alice, until 2099-12-31, expected ratio 1.05\): new cuBLAS"
expect_exit 0 "$PERFGATE" baseline rm pool
expect_exit 2 "$PERFGATE" baseline rm pool
expect_in err "unknown baseline 'pool'"

# store: backup, export, prune.
expect_exit 0 "$PERFGATE" store backup "$WORK/backup.db"
expect_exit 2 "$PERFGATE" store backup "$WORK/backup.db"
expect_exit 0 "$PERFGATE" history --db "$WORK/backup.db" "gemm/m:64@time"
expect_in out "^  00000001"
expect_exit 0 "$PERFGATE" store export --format csv -o "$WORK/all.csv"
grep -q '^00000000-aaaa-4aaa-8aaa-000000000000,nightly,main,c0,.*gemm/m:64@time,ns,lower_is_better,ok,3,101,' "$WORK/all.csv" \
  || { cat "$WORK/all.csv"; fail "csv export lacks the gemm row"; }
expect_exit 0 "$PERFGATE" store export --format json
python3 -c "import json,sys; d=json.load(open('$WORK/out')); assert len(d)==9, len(d)"  # runs stored above
expect_exit 0 "$PERFGATE" store prune --keep-samples-days 0
expect_in out "pruned [1-9][0-9]* samples"
expect_exit 0 "$PERFGATE" history --format json --samples "gemm/m:64@time"
python3 -c "import json; d=json.load(open('$WORK/out')); p=d[0]['points'][0]; assert p['samples']==[] and p['n']==3 and p['median']==101, p"
echo PASS
