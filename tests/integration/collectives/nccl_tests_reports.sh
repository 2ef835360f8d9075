#!/usr/bin/env bash
# The newest nccl-tests' reporting options under real mpirun processes: -I 1 (each iteration timed
# on its own; a placement's row adds its iterations' min, max, p99 and variation, each
# iteration's slowest rank's), -S 1 (a timestamp ends each row), -J (nccl-tests' JSON output)
# -y (NCCL's default stream, refused by the MPI backend), --bitwise-repeats (each output compared
# bit for bit across repeated runs) and the NCCL_TESTS_MIN_BW floor. The tables and the JSON read
# back through perfgate's nccl-tests ingester.
HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/../lib.sh"
source "$HERE/mpi_env.sh"

# --- -I 1 -S 1 -N 2 on 2 ranks, every collective; rank 1 sleeps 3 ms inside each timed operation,
# so every iteration's slowest rank takes 3 ms or more.
expect_exit 0 run_collectives 2 --backend mpi --collective all -b 1K -e 4K -f 4 -n 5 -w 1 -N 2 \
  -I 1 -S 1 --delay-rank 1 --delay-us 3000 --straggler-floor-us 1e9 --output "$WORK/iter.json"
cp "$WORK/out" "$WORK/iter.txt"
expect_in iter.txt '^# Per-Iteration Report: host clock timing; i_\* uses max over process rows $'
expect_in iter.txt '^#       size         count      type   redop    root     time   algbw   busbw  #wrong    i_min    i_max    i_p99    i_cv%     time   algbw   busbw  #wrong    i_min    i_max    i_p99    i_cv%           timestamp$'
expect_in iter.txt '^#        \(B\)    \(elements\)                               \(us\)  \(GB/s\)  \(GB/s\)             \(us\)     \(us\)     \(us\)      \(%\)     \(us\)  \(GB/s\)  \(GB/s\)             \(us\)     \(us\)     \(us\)      \(%\)   %Y-%m-%d %H:%M:%S$'
python3 - "$WORK/iter.txt" "$WORK/iter.json" <<'PY' || fail "-I 1 -S 1: table against document"
import json, re, sys
from decimal import Decimal
rows = [l.split() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
assert len(rows) == 10 * 2 * 2, len(rows)  # collectives x sizes x cycles
for r in rows:
    assert len(r) == 5 + 2 * 8 + 2, r
    assert re.fullmatch(r"\d{4}-\d\d-\d\d", r[-2]) and re.fullmatch(r"\d\d:\d\d:\d\d", r[-1]), r
    for base in (5, 13):
        time, (i_min, i_max, i_p99, cv) = float(r[base]), map(float, r[base + 4:base + 8])
        # Every iteration waits for the delayed rank. The time, a mean over ranks of their own
        # iterations, is at most the slowest iteration; it may be below i_min, the fastest of
        # the slowest ranks' iterations, when the ranks' slow iterations fall apart.
        assert 3000 <= i_min <= i_p99 <= i_max, r
        assert time <= i_max * 1.01 + 0.05, r
        # The population CV of -n 5 iterations is at most 100 * sqrt(5 - 1) %, and at most
        # 50 * (max - min) / min % for values between min and max (a loaded machine reaches 125%).
        assert 0 <= cv <= min(200, 50 * (i_max - i_min) / i_min) * 1.01 + 0.01, r
doc = json.load(open(sys.argv[2]))["perfgate"]
assert doc["run"]["metadata"]["collectives"]["options"]["per_iteration"] is True
times = [x for x in doc["results"] if x["metric"] == "time"]
assert len(times) == 10 * 2 * 2, len(times)
for t in times:
    stats = t["extra"]["per_iteration"]
    assert len(stats) == 2, stats  # one entry a cycle
    assert all(s["min_us"] >= 3000 and s["min_us"] <= s["p99_us"] <= s["max_us"] for s in stats), stats
    assert len(t["samples"]) == 2, t["samples"]
# The table's last cycle prints each case's last statistics, to the printed digits: two
# decimals below 10 ms, none from 100 ms (108581 for 108580.566), as nccl-tests' getFloatStr.
def half_last_digit(cell):
    return 10.0 ** Decimal(cell).as_tuple().exponent / 2
last, op = {}, None
for line in open(sys.argv[1]):
    if line.startswith("# Collective test starting:"):
        op = line.split()[-1].removesuffix("_perf")
    elif line.strip() and not line.startswith("#"):
        last[(op, line.split()[0])] = line.split()
for t in times:
    r = last[(t["family"].removeprefix("collectives."), t["params"]["bytes"])]
    base = 13 if t["params"]["inplace"] == "1" else 5
    s = t["extra"]["per_iteration"][-1]
    for column, key in enumerate(("min_us", "max_us", "p99_us", "cv_pct")):
        cell = r[base + 4 + column]
        assert abs(float(cell) - s[key]) <= half_last_digit(cell) * 1.001, (r, s)
PY
# The ingested table keeps each placement's statistics and each row's time, one a cycle.
if ingest_or_skip --format nccl-tests "$WORK/iter.txt"; then
  extra=$(sqlite3 "$WORK/store.db" "SELECT r.extra FROM results r JOIN series s ON s.id = r.series_id WHERE s.family = 'collectives.all_reduce' AND s.metric = 'time' AND json_extract(s.params, '\$.bytes') = '4096' AND json_extract(s.params, '\$.inplace') = '0' AND r.run_id = (SELECT MAX(id) FROM runs)")
  python3 - "$extra" <<'PY' || fail "-I 1 -S 1: the ingested extra"
import json, sys
extra = json.loads(sys.argv[1])
assert len(extra["per_iteration"]) == 2 and len(extra["printed_at"]) == 2, extra
assert all(s["min_us"] >= 3000 for s in extra["per_iteration"]), extra
PY
fi

# --- -I 1 with -m 4: an iteration's span over its 4 operations, per operation.
expect_exit 0 run_collectives 2 --backend mpi -b 64K -e 64K -n 5 -w 1 -m 4 -I 1 \
  --delay-rank 0 --delay-us 2000
python3 - "$WORK/out" <<'PY' || fail "-I 1 -m 4: per operation"
import sys
r = [l.split() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")][0]
assert len(r) == 5 + 2 * 8, r
# Rank 0 sleeps 2 ms once an iteration of 4 operations: 0.5 ms or more per operation, not the
# iteration's 2 ms. The fastest of 5 iterations tells them apart; the slowest may take 8 ms
# and more on a loaded machine.
assert 500 <= float(r[9]) < 2000 and float(r[9]) <= float(r[10]), r
PY

# --- -J: nccl-tests' JSON, one file a collective, never overwriting (PATH, then PATH.0, ...);
# each reads back through perfgate's nccl-tests JSON reader to the document's own numbers.
expect_exit 0 run_collectives 2 --backend mpi --collective all_reduce,all_gather,broadcast \
  -d float,bfloat16 -b 1K -e 16K -f 4 -n 3 -w 1 -I 1 -J "$WORK/nt.json" --output "$WORK/nt_doc.json"
cp "$WORK/out" "$WORK/nt.txt"
expect_in nt.txt "^# Writing JSON output to $WORK/nt.json\$"
expect_in nt.txt "^# Writing JSON output to $WORK/nt.json.1\$"
python3 - "$WORK" <<'PY' || fail "-J: the files"
import json, sys
work = sys.argv[1]
for name, op in (("nt.json", "all_reduce"), ("nt.json.0", "all_gather"), ("nt.json.1", "broadcast")):
    d = json.load(open(f"{work}/{name}"))
    assert d["args"][0].endswith("perfgate-collectives") and "-J" in d["args"], d["args"]
    assert d["program"] == op + "_perf", d["program"]
    assert d["nccl_version"] is None, d["nccl_version"]  # the MPI backend has no NCCL
    assert d["config"]["per_iter_timing"] == "true" and d["config"]["step_factor"] == 4, d["config"]
    assert [x["device_hex"] for x in d["config"]["devices"]] == ["cpu", "cpu"], d["config"]["devices"]
    assert len(d["results"]) == 3 * 2, len(d["results"])
    assert list(d)[:3] == ["version", "program", "start_time"] and list(d)[-1] == "end_time", list(d)
    for r in d["results"]:
        assert r["out_of_place"]["nwrong"] == 0 and r["in_place"]["time"] > 0, r
        assert list(r)[5:9] == ["out_of_place", "out_of_place_per_iter", "in_place", "in_place_per_iter"], list(r)
        for key in ("out_of_place_per_iter", "in_place_per_iter"):
            it = r[key]
            # -n 3: three iterations, each its slower rank's, from both ranks' own times.
            ranks = it["per_process_max_times_us"]
            assert len(ranks) == 2 and all(len(x) == 3 for x in ranks), it
            assert it["times_us"] == [max(a, b) for a, b in zip(*ranks)], it
            times = sorted(it["times_us"])
            assert (it["min_us"], it["p50_us"], it["max_us"]) == (times[0], times[1], times[2]), it
            assert abs(it["avg_us"] - sum(times) / 3) <= 1e-9 * it["avg_us"], it
    assert d["out_of_bounds"] == {"count": 0, "okay": "true"}, d["out_of_bounds"]
PY
if ingest_or_skip "$WORK/nt.json.0"; then
  python3 - "$WORK/store.db" "$WORK/nt_doc.json" <<'PY' || fail "-J: the ingested all_gather against the document"
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
run = db.execute("SELECT MAX(id) FROM runs").fetchone()[0]
stored = {(p, m): v for p, m, v in db.execute(
    "SELECT s.params, s.metric, r.median FROM results r JOIN series s ON s.id = r.series_id "
    "WHERE r.run_id = ? AND s.family = 'collectives.all_gather'", (run,))}
doc = json.load(open(sys.argv[2]))["perfgate"]
expected = {}
for r in doc["results"]:
    if r["family"] == "collectives.all_gather":
        mean = sum(r["samples"]) / len(r["samples"])  # the table's value: the samples' mean
        expected[(json.dumps(r["params"], sort_keys=True), r["metric"])] = mean
stored = {(json.dumps(json.loads(p), sort_keys=True), m): v for (p, m), v in stored.items()}
assert set(stored) == set(expected) and len(expected) == 3 * 2 * 2 * 3, sorted(set(stored) ^ set(expected))[:4]
for key, value in expected.items():
    assert abs(stored[key] - value) <= 1e-9 * max(1, abs(value)), (key, stored[key], value)
print(len(expected), "all_gather values read back from -J's JSON")
PY
fi
# --- -K 2: the statistics leave out each case's first 2 iterations; times_us keeps all 5.
expect_exit 0 run_collectives 2 --backend mpi -b 4K -e 16K -f 4 -n 5 -w 1 -I 1 -K 2 \
  -J "$WORK/skip.json"
expect_in out '^# Per-Iteration Report: host clock timing; i_\* uses max over process rows; summary skips first 2 iterations $'
python3 - "$WORK/skip.json" "$WORK/out" <<'PY' || fail "-K 2: the statistics against times_us"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["version"] == 3 and d["config"]["per_iter_skip"] == 2, (d["version"], d["config"])
rows = [l.split() for l in open(sys.argv[2]) if l.strip() and not l.startswith("#")]
assert len(rows) == len(d["results"]) == 2, (rows, d["results"])
for r, printed in zip(d["results"], rows):
    for key, first in (("out_of_place_per_iter", 9), ("in_place_per_iter", 17)):
        it = r[key]
        assert it["skipped_iterations"] == 2 and len(it["times_us"]) == 5, it
        kept = sorted(it["times_us"][2:])
        assert (it["min_us"], it["p50_us"], it["max_us"]) == (kept[0], kept[1], kept[2]), it
        assert all(len(x) == 5 for x in it["per_process_max_times_us"]), it
        # The table's i_min is the same statistic, to its printed digits.
        assert abs(float(printed[first]) - it["min_us"]) <= 0.0051 * max(1, it["min_us"]), (printed, it)
PY
expect_exit 2 run_collectives 1 --backend mpi -n 5 -I 1 -K 5
expect_in err '^perfgate-collectives: --per_iter_skip 5: must be from 0 to 4 \(one less than --iters 5, so that one iteration is left for the statistics\)$'
expect_exit 2 run_collectives 1 --backend mpi --mode buckets -K 1
expect_in err '^perfgate-collectives: --per_iter_skip: applies to sweep mode only, not buckets$'

# --- -M 1: after the footer, what the table took of the process's resident memory (the MPI
# backend's "Host"). 32 MiB out of place: a 32 MiB input and a 32 MiB output, kept in place.
expect_exit 0 run_collectives 2 --backend mpi -b 32M -e 32M -n 2 -w 1 -M 1 --output "$WORK/mem.json"
cp "$WORK/out" "$WORK/mem.txt"
python3 - "$WORK/mem.txt" "$WORK/mem.json" <<'PY' || fail "-M 1: the line against the document"
import json, re, sys
lines = open(sys.argv[1]).read().splitlines()
at = lines.index("# Collective test concluded: all_reduce_perf")
m = re.fullmatch(r"# Host memory usage    : Initialization (-?[\d.]+ [KMG]?B) \| "
                 r"User-Allocated ([\d.]+ [KMG]?B) \| Collective (-?[\d.]+ [KMG]?B) \| "
                 r"Total  (-?[\d.]+ [KMG]?B)", lines[at + 1])
assert m, lines[at + 1]
assert m[2] == "64.0 MB", m[2]
usage = json.load(open(sys.argv[2]))["perfgate"]["run"]["metadata"]["collectives"]["memory_usage"]
assert len(usage) == 1 and usage[0]["collective"] == "all_reduce" and usage[0]["device"] == "Host", usage
u = usage[0]
assert 64 << 20 <= u["user_allocated_bytes"] < 65 << 20, u
assert u["initialization_bytes"] > 0, u  # MPI_Init and the communicator
assert u["total_bytes"] == u["initialization_bytes"] + u["user_allocated_bytes"] + u["collective_bytes"], u
PY
if ingest_or_skip --format nccl-tests "$WORK/mem.txt"; then
  meta=$(sqlite3 "$WORK/store.db" "SELECT metadata FROM runs WHERE id = (SELECT MAX(id) FROM runs)")
  python3 - "$meta" "$WORK/mem.json" <<'PY' || fail "-M 1: the ingested memory line"
import json, sys
read = json.loads(sys.argv[1])["nccl_tests"]["memory_usage"]
doc = json.load(open(sys.argv[2]))["perfgate"]["run"]["metadata"]["collectives"]["memory_usage"][0]
assert len(read) == 1 and read[0]["device"] == "Host" and read[0]["operation"] == "all_reduce", read
for key in ("initialization", "user_allocated", "collective"):
    # Printed with three significant digits at most.
    assert abs(read[0]["bytes"][key] - doc[key + "_bytes"]) <= 0.01 * abs(doc[key + "_bytes"]) + 1, (key, read, doc)
PY
fi
expect_exit 2 run_collectives 1 --backend mpi -M 2
expect_in err '^perfgate-collectives: --memory: must be 0 or 1$'
expect_exit 2 run_collectives 1 --backend mpi --mode overlap --memory_report 1
expect_in err '^perfgate-collectives: --memory: applies to sweep mode only, not overlap$'

expect_exit 2 run_collectives 2 --backend mpi -J "$WORK/missing/nt.json" --output "$WORK/missing.json"
expect_in err "^perfgate-collectives: --output_file $WORK/missing/nt.json: the folder $WORK/missing does not exist\$"
[ ! -e "$WORK/missing.json" ] || fail "-J into a missing folder wrote a document"
expect_exit 2 run_collectives 1 --backend mpi --mode buckets -J "$WORK/b.json"
expect_in err '^perfgate-collectives: --output_file: applies to sweep mode only, not buckets$'

# --- --bitwise-repeats 2 with -I 1 on 2 ranks, every collective: nccl-tests' header line, group
# titles and #bitdiff column (0 everywhere: Open MPI's collectives are deterministic; a differing
# output is covered by collectives_unit), the footer, the document and -J, and the ingester.
expect_exit 0 run_collectives 2 --backend mpi --collective all -b 1K -e 4K -f 4 -n 2 -w 1 -I 1 \
  --bitwise-repeats 2 -J "$WORK/bitwise.json" --output "$WORK/bitwise_doc.json"
cp "$WORK/out" "$WORK/bitwise.txt"
[ "$(grep -c '^# Bitwise Repeatability: 2 comparisons after one reference run $' "$WORK/bitwise.txt")" -eq 10 ] ||
  { cat "$WORK/bitwise.txt"; fail "--bitwise-repeats 2: not one header line a table"; }
expect_in bitwise.txt '^# {70}out-of-place \(\+ bitwise \+ per-iteration\) {38}in-place \(\+ bitwise \+ per-iteration\)$'
expect_in bitwise.txt '  #wrong  #bitdiff    i_min    i_max    i_p99    i_cv%     time'
[ "$(grep -c '^# Bitwise mismatches   : 0 OK$' "$WORK/bitwise.txt")" -eq 10 ] ||
  { cat "$WORK/bitwise.txt"; fail "--bitwise-repeats 2: not one passing footer line a table"; }
python3 - "$WORK/bitwise.txt" "$WORK/bitwise_doc.json" "$WORK/bitwise.json" <<'PY' || fail "--bitwise-repeats: table, document or JSON"
import json, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
assert len(rows) == 10 * 2, len(rows)
for r in rows:
    assert len(r) == 5 + 2 * 9, r
    for bitdiff in (r[9], r[18]):  # after each #wrong; N/A where the output is not defined
        assert bitdiff in ("0", "N/A"), r
doc = json.load(open(sys.argv[2]))["perfgate"]
assert doc["run"]["metadata"]["collectives"]["options"]["bitwise_repeats"] == 2
for x in doc["results"]:
    if x["metric"] == "time":
        assert x["extra"]["bitdiff"] == 0 and x["extra"]["bitwise"]["first_repeat"] == -1, x
        assert x["status"] == "ok", x
j = json.load(open(sys.argv[3]))
assert j["config"]["bitwise_repeats"] == 2
assert j["results"][0]["out_of_place"]["bitwise"]["repeats"] == 2
assert j["bitwise_mismatches"] == {"count": 0, "okay": "true"}, j["bitwise_mismatches"]
PY
if ingest_or_skip --format nccl-tests "$WORK/bitwise.txt"; then
  sqlite3 "$WORK/store.db" "SELECT metadata FROM runs ORDER BY rowid DESC LIMIT 1" >"$WORK/meta"
  expect_in meta '"bitwise_repeats":2'
  expect_in meta '"bitwise_mismatches":"0 OK"'
  ingest_or_skip "$WORK/bitwise.json"
fi
expect_exit 2 run_collectives 1 --backend mpi --bitwise-repeats 1001
expect_in err '^perfgate-collectives: --bitwise-repeats 1001: must be from 0 to 1000$'
expect_exit 2 run_collectives 1 --backend mpi --mode buckets --bitwise-repeats 1
expect_in err '^perfgate-collectives: --bitwise-repeats: applies to sweep mode only, not buckets$'

# --- NCCL_TESTS_MIN_BW, nccl-tests' floor on a table's average bus bandwidth: a floor no run can
# miss passes (OK); one no run can reach fails each table (FAILED in its footer, a line on the
# error stream, exit 1), the document and -J's file record the verdicts, and the ingester reads
# them back. The floor is rank 0's: a rank without the variable (a launcher that passes it to
# some ranks only) follows rank 0.
NCCL_TESTS_MIN_BW=0.000001 expect_exit 0 run_collectives 2 --backend mpi \
  --collective all_reduce,broadcast -b 1K -e 2K -n 2 -w 1 --output "$WORK/floor_ok.json"
[ "$(grep -cE '^# Avg bus bandwidth    : [0-9.e+-]+ OK$' "$WORK/out")" -eq 2 ] ||
  { cat "$WORK/out"; fail "NCCL_TESTS_MIN_BW=0.000001: not two tables passing"; }
expect_not_in err 'below 90%'
unset NCCL_TESTS_MIN_BW
floor_rank0_only() {
  mpirun --oversubscribe -np 1 env NCCL_TESTS_MIN_BW=1e9 "$COLLECTIVES" "$@" : \
    -np 1 "$COLLECTIVES" "$@"
}
expect_exit 1 floor_rank0_only --backend mpi --collective all_reduce,broadcast -b 1K -e 2K -n 2 \
  -w 1 -J "$WORK/floor.json" --output "$WORK/floor_doc.json"
cp "$WORK/out" "$WORK/floor.txt"
[ "$(grep -cE '^# Avg bus bandwidth    : [0-9.e+-]+ FAILED$' "$WORK/floor.txt")" -eq 2 ] ||
  { cat "$WORK/floor.txt"; fail "NCCL_TESTS_MIN_BW=1e9: not two tables failing"; }
expect_in err '^perfgate-collectives: all_reduce: average bus bandwidth [0-9.e+-]+ GB/s is below 90% of NCCL_TESTS_MIN_BW=1e\+09$'
expect_in err '^perfgate-collectives: broadcast: average bus bandwidth'
python3 - "$WORK/floor_doc.json" "$WORK/floor.json" "$WORK/floor.json.0" <<'PY' || fail "NCCL_TESTS_MIN_BW: document or JSON"
import json, sys
doc = json.load(open(sys.argv[1]))["perfgate"]
checks = doc["run"]["metadata"]["collectives"]["average_bus_bandwidth"]
assert [c["collective"] for c in checks] == ["all_reduce", "broadcast"], checks
assert all(c["okay"] is False and c["min_busbw_gbps"] == 1e9 and 0 < c["busbw_gbps"] < 1e9
           for c in checks), checks
assert len(doc["results"]) > 0  # a run below the floor keeps its measurements
for path in sys.argv[2:]:
    average = json.load(open(path))["average_bus_bandwidth"]
    assert average["okay"] == "false" and average["bandwidth"] > 0, average
PY
if ingest_or_skip --format nccl-tests "$WORK/floor.txt"; then
  sqlite3 "$WORK/store.db" "SELECT metadata FROM runs ORDER BY rowid DESC LIMIT 1" >"$WORK/meta"
  expect_in meta '"min_busbw_check":"FAILED"'
fi
NCCL_TESTS_MIN_BW=fast expect_exit 2 run_collectives 2 --backend mpi --output "$WORK/fast.json"
expect_in err '^perfgate-collectives: NCCL_TESTS_MIN_BW=fast: not a bus bandwidth in GB/s \(a number from 0\)$'
[ ! -e "$WORK/fast.json" ] || fail "a malformed NCCL_TESTS_MIN_BW wrote a document"

# Refused: -I and -S other than 0 or 1, outside sweep mode; -I with a CUDA graph; -y 1 on MPI;
# -y with a graph (the default stream cannot be captured).
expect_exit 2 run_collectives 1 --backend mpi -I 2
expect_in err '^perfgate-collectives: --per_iter_timing: must be 0 or 1$'
expect_exit 2 run_collectives 1 --backend mpi -S 3
expect_in err '^perfgate-collectives: --report_timestamps: must be 0 or 1$'
expect_exit 2 run_collectives 1 --backend mpi --mode buckets -I 1
expect_in err '^perfgate-collectives: --per_iter_timing: applies to sweep mode only, not buckets$'
expect_exit 2 run_collectives 1 --backend mpi --mode reference -S 1
expect_in err '^perfgate-collectives: --report_timestamps: applies to sweep mode only, not reference$'
expect_exit 2 run_collectives 1 --backend mpi -I 1 -G 2
expect_in err '^perfgate-collectives: --per_iter_timing: a CUDA graph \(--cudagraph\) replays its iterations with no host step between them to time; use one of them$'
expect_exit 2 run_collectives 1 --backend mpi -y 1 --output "$WORK/stream.json"
expect_in err '^perfgate-collectives: --stream_null 1: the MPI backend has no CUDA streams \(0 only\)$'
[ ! -e "$WORK/stream.json" ] || fail "-y 1 wrote a document"
expect_exit 2 run_collectives 1 --backend mpi -y 1 -G 1
expect_in err '^perfgate-collectives: --stream_null: CUDA cannot capture the legacy default stream'
expect_exit 0 run_collectives 1 --backend mpi -b 8 -e 8 -n 1 -w 0 -y 0 -I 0 -S 0
finish
