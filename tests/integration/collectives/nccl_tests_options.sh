#!/usr/bin/env bash
# nccl-tests' -i (fixed size increments), -m (operations launched together), -z (blocking), -u
# (misaligned buffers),
# -c N (checked operations), -s (a byte budget per timed loop), -N (run cycles), -C (launch time), -O (placements), -r all (every
# root in turn), -t/-g/-p and
# -R 0 on the MPI backend (-R 1 and 2 refused there, as -x), under real mpirun processes; the nccl-tests options not taken are refused by
# name. A PMPI call
# counter preloaded into every rank shows how the operations were launched: -m 4 starts 4
# nonblocking collectives per iteration and waits once; -z 1 adds one barrier per operation, -z 2
# none, -z 3 one per iteration;
# -c 3 checks three operations.
HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/../lib.sh"
source "$HERE/mpi_env.sh"
[ -f "${MPI_CALL_COUNTER:-}" ] || fail "MPI_CALL_COUNTER is not a built library: '${MPI_CALL_COUNTER:-}'"
# A sanitizer build's runtime must come first; the preloaded counter comes before it.
export ASAN_OPTIONS="$ASAN_OPTIONS:verify_asan_link_order=0"

# sizes_in FILE: the distinct sizes of the table's rows, ascending.
sizes_in() { awk '!/^#/ && NF == 13 {print $1}' "$1" | sort -nu | tr '\n' ' '; }

# --- -i: fixed increments; -f 1 means the same with the default 1M increment.
expect_exit 0 run_collectives 2 --backend mpi --collective all -b 1K -e 4K -i 1K -n 2 -w 1 \
  --output "$WORK/steps.json"
expect_in out '^# nThread 1 nGpus 1 minBytes 1024 maxBytes 4096 step: 1024\(bytes\) warmup iters: 1 iters: 2 agg iters: 1 validation: 1 graph: 0 unalign: 0$'
[ "$(sizes_in "$WORK/out")" = "1024 2048 3072 4096 " ] || { cat "$WORK/out"; fail "-i 1K: sizes $(sizes_in "$WORK/out")"; }
[ "$(grep -cvE '^#|^$' "$WORK/out")" -eq 40 ] || { cat "$WORK/out"; fail "-i 1K: not 4 rows for each of 10 collectives"; }
cp "$WORK/out" "$WORK/steps.txt"
python3 "$HERE/check_run.py" "$WORK/steps.txt" "$WORK/steps.json" 2 || fail "-i 1K: table or document"
expect_exit 0 run_collectives 1 --backend mpi -b 1M -e 3M -f 1 -n 1 -w 0 -R 0
expect_in out 'step: 1048576\(bytes\)'
[ "$(sizes_in "$WORK/out")" = "1048576 2097152 3145728 " ] || { cat "$WORK/out"; fail "-f 1: sizes"; }

# The table header's step and agg iters survive perfgate's nccl-tests ingester.
if ingest_or_skip --format nccl-tests "$WORK/steps.txt"; then
  sqlite3 "$WORK/store.db" "SELECT metadata FROM runs" >"$WORK/meta"
  expect_in meta 'step: 1024\(bytes\) warmup iters: 1 iters: 2 agg iters: 1'
fi

# Refused with one line and exit 2: both -i and a factor, a zero factor, a zero increment, and
# an increment that would make more sizes than a run can measure.
expect_exit 2 run_collectives 1 --backend mpi -b 1K -e 4K -i 1K -f 2
expect_in err '^perfgate-collectives: --stepbytes 1K with --stepfactor 2: give one of them \(a factor of 1 uses the increment\)$'
expect_exit 2 run_collectives 1 --backend mpi -f 0
expect_in err '^perfgate-collectives: --stepfactor: .0. is not a whole number of 1 or more$'
expect_exit 2 run_collectives 1 --backend mpi -i 0
expect_in err '^perfgate-collectives: --stepbytes: must be at least 1$'
expect_exit 2 run_collectives 1 --backend mpi -b 8 -e 8G -i 8 --output "$WORK/bad.json"
expect_in err 'makes more than 10000 sizes$'
[ ! -e "$WORK/bad.json" ] || fail "a document was written for a refused sweep"

# counted NAME NP ARGS...: runs NP ranks with the call counter; counts in $WORK/NAME.<rank>.
counted() {
  local name=$1 np=$2
  shift 2
  mpirun --oversubscribe -np "$np" -x LD_PRELOAD="$MPI_CALL_COUNTER" \
    -x MPI_CALL_COUNTS="$WORK/$name" "$COLLECTIVES" "$@"
}
# calls NAME RANK CALL: how often RANK made CALL in run NAME (0 when never).
calls() { awk -v c="$3" '$1 == c {n = $2} END {print n + 0}' "$WORK/$1.$2"; }

# --- -m 4: every collective, both placements, each of -n 3 iterations starts 4 nonblocking
# operations and waits once; the data check (one operation) passes on 2 and 4 ranks.
one_case=(--backend mpi --collective all -b 4K -e 4K -n 3 -w 1)
for np in 2 4; do
  expect_exit 0 counted "grouped$np" "$np" "${one_case[@]}" -m 4 --output "$WORK/grouped$np.json"
  cp "$WORK/out" "$WORK/grouped$np.txt"
  expect_in "grouped$np.txt" 'iters: 3 agg iters: 4 validation: 1'
  [ "$(grep -c '^# Out of bounds values : 0 OK$' "$WORK/grouped$np.txt")" -eq 10 ] \
    || { cat "$WORK/grouped$np.txt"; fail "-m 4 np=$np: a data check failed"; }
  python3 "$HERE/check_run.py" "$WORK/grouped$np.txt" "$WORK/grouped$np.json" "$np" \
    || fail "-m 4 np=$np: table or document"
  for ((rank = 0; rank < np; ++rank)); do
    for call in MPI_Iallreduce MPI_Iallgather MPI_Ireduce_scatter_block MPI_Ibcast MPI_Ireduce \
        MPI_Ialltoall MPI_Igather MPI_Iscatter; do
      [ "$(calls "grouped$np" "$rank" "$call")" -eq 24 ] \
        || { cat "$WORK/grouped$np.$rank"; fail "-m 4 np=$np rank $rank: $call not 2 placements x 3 x 4"; }
    done
    # send/receive: out of place nonblocking (3 x 4); in place one after another (none).
    [ "$(calls "grouped$np" "$rank" MPI_Isend)" -eq 12 ] || { cat "$WORK/grouped$np.$rank"; fail "MPI_Isend"; }
    # One a grouped iteration: hypercube's (its exchanges blocking, one operation after another)
    # waits on no request.
    [ "$(calls "grouped$np" "$rank" MPI_Waitall)" -eq 60 ] \
      || { cat "$WORK/grouped$np.$rank"; fail "-m 4 np=$np rank $rank: not one wait per iteration (10 x 2 x 3)"; }
  done
done
python3 - "$WORK/grouped2.json" "$WORK/steps.json" <<'PY' || fail "-m 4: document"
import json, sys
grouped = json.load(open(sys.argv[1]))["perfgate"]
plain = json.load(open(sys.argv[2]))["perfgate"]
assert grouped["run"]["metadata"]["collectives"]["options"]["agg_iters"] == 4
# A grouped time per operation is not a plain one: the comparable key says how the loops ran.
assert grouped["fingerprint"]["comparable"]["collectives.launch"] == "-m 4", grouped["fingerprint"]
assert "collectives.launch" not in plain["fingerprint"]["comparable"]
PY
# So compare refuses to judge a grouped run against a plain one.
expect_exit 3 "$PERFGATE" compare "$WORK/steps.json" "$WORK/grouped2.json"
expect_in out 'fingerprints differ in: collectives.launch'
# Without -m the timed loops use the blocking calls: no nonblocking collective at all.
expect_exit 0 counted plain 2 "${one_case[@]}"
[ "$(calls plain 0 MPI_Iallreduce)" -eq 0 ] && [ "$(calls plain 0 MPI_Waitall)" -eq 0 ] \
  || { cat "$WORK/plain.0"; fail "a plain run started nonblocking operations"; }

# --- -z 1: one barrier more per timed operation (10 collectives x 2 placements x 3); nothing
# else changes.
expect_exit 0 counted blocking 2 "${one_case[@]}" -z 1 --output "$WORK/blocking.json"
for rank in 0 1; do
  extra=$(($(calls blocking "$rank" MPI_Barrier) - $(calls plain "$rank" MPI_Barrier)))
  [ "$extra" -eq 60 ] || fail "-z 1 rank $rank: $extra more barriers, not 60"
done
python3 -c 'import json,sys; fp = json.load(open(sys.argv[1]))["perfgate"]["fingerprint"]["comparable"]; assert fp["collectives.launch"] == "-z 1", fp' \
  "$WORK/blocking.json" || fail "-z 1: fingerprint"
# The table says so as nccl-tests does, and its ingested log carries the same key: compare of
# the table with its own document does not list collectives.launch among the keys that differ
# (a log lacks the build keys), and compare with a plain document does.
expect_in out '^# Blocking Enabled: wait and barrier after each inner iteration \(-m\) $'
cp "$WORK/out" "$WORK/blocking.txt"
expect_exit 3 "$PERFGATE" compare "$WORK/blocking.txt" "$WORK/blocking.json"
expect_in out 'fingerprints differ in: '
expect_not_in out 'collectives\.launch'
expect_exit 3 "$PERFGATE" compare "$WORK/blocking.txt" "$WORK/steps.json"
expect_in out 'fingerprints differ in: .*collectives\.launch' 

# --- -z 2 waits after each operation without a barrier: no barrier more than a plain run. -z 3
# waits once an iteration (here a group of -m 4) and adds one barrier there, left out of the
# time: 60 more (10 collectives x 2 placements x 3 iterations), the groups unchanged. Both say so
# in the header as the newest nccl-tests do, and in collectives.launch.
expect_exit 0 counted waiting 2 "${one_case[@]}" -z 2 --output "$WORK/waiting.json"
expect_in out '^# Blocking Enabled: wait after each inner iteration \(-m\), no barrier $'
expect_exit 0 counted outer 2 "${one_case[@]}" -z 3 -m 4 --output "$WORK/outer.json"
expect_in out '^# Blocking Enabled: wait and barrier after each outer iteration \(-n\); time excludes barrier $'
expect_in out '^# Out of bounds values : 0 OK$'
cp "$WORK/out" "$WORK/outer.txt"
for rank in 0 1; do
  [ "$(calls waiting "$rank" MPI_Barrier)" -eq "$(calls plain "$rank" MPI_Barrier)" ] \
    || fail "-z 2 rank $rank: a barrier more than a plain run"
  extra=$(($(calls outer "$rank" MPI_Barrier) - $(calls plain "$rank" MPI_Barrier)))
  [ "$extra" -eq 60 ] || fail "-z 3 -m 4 rank $rank: $extra more barriers, not 60"
  [ "$(calls outer "$rank" MPI_Iallreduce)" -eq 24 ] || fail "-z 3 -m 4 rank $rank: not 2 x 3 x 4 grouped all_reduces"
done
python3 - "$WORK/waiting.json" "$WORK/outer.json" <<'PY' || fail "-z 2, -z 3: fingerprint"
import json, sys
launch = [json.load(open(f))["perfgate"]["fingerprint"]["comparable"]["collectives.launch"] for f in sys.argv[1:]]
assert launch == ["-z 2", "-m 4 -z 3"], launch
PY
# The -z 3 table read back by the nccl-tests reader carries the same key as its document.
expect_exit 3 "$PERFGATE" compare "$WORK/outer.txt" "$WORK/outer.json"
expect_in out 'fingerprints differ in: '
expect_not_in out 'collectives\.launch'

# --- Operations in flight together each receive into a buffer of their own, and the memory
# check counts them: 1 MiB all_reduce needs 2 MiB alone, 5 MiB as a group of 4.
expect_exit 0 run_collectives 2 --backend mpi -b 1M -e 1M -n 1 -w 0 --max-memory 3M
expect_not_in out 'Skipped'
expect_exit 0 run_collectives 2 --backend mpi -b 1M -e 1M -n 1 -w 0 --max-memory 3M -m 4
expect_in out '^# Skipped: all_reduce float 1048576 B: rank 0 \(.+\) needs 5\.0 MiB for its buffers, more than 3\.0 MiB \(--max-memory\)'

# --- -c 3: three checked operations per placement where -c 1 has one; each checked operation is
# one MPI_Allreduce and one more that sums the wrong elements over the ranks: 2 x 2 x 2 more.
expect_exit 0 counted checked_once 2 --backend mpi -b 4K -e 4K -n 1 -w 0 -c 1
expect_exit 0 counted checked_thrice 2 --backend mpi -b 4K -e 4K -n 1 -w 0 -c 3
expect_in out 'iters: 1 agg iters: 1 validation: 3 graph: 0 unalign: 0$'
expect_in out '^# Out of bounds values : 0 OK$'
for rank in 0 1; do
  extra=$(($(calls checked_thrice "$rank" MPI_Allreduce) - $(calls checked_once "$rank" MPI_Allreduce)))
  [ "$extra" -eq 8 ] || fail "-c 3 rank $rank: $extra more MPI_Allreduce calls, not 8"
done
# Each checked operation fills the next draw of the pattern (the same values in other places) and
# is judged against that draw: every collective, op and root on 3 ranks passes all three checks.
expect_exit 0 run_collectives 3 --backend mpi --collective all -b 96 -e 192 -n 1 -w 0 -c 3 \
  -o all -r all
[ "$(grep -c '^# Out of bounds values : 0 OK$' "$WORK/out")" -eq 9 ] ||
  fail "-c 3 over every collective: not 9 tables without wrong elements"
expect_exit 0 run_collectives 2 --backend mpi -b 4K -e 4K -n 1 -w 0 -c 0
expect_in out 'validation: 0 graph: 0 unalign: 0$'
[ "$(awk '!/^#/ && NF == 13 {print $9 $13}' "$WORK/out")" = "N/AN/A" ] || { cat "$WORK/out"; fail "-c 0: #wrong is not N/A"; }

# --- -s 16K: a byte budget per timed loop. -n 8 holds for 1K (16K / 1K = 16 fit), 4K runs 4
# and 16K 1, as nccl-tests' tbytes divides; so 2 placements x (0 + 4 + 7) = 22 MPI_Allreduce
# calls fewer than without it, and each size's iterations are in -J's actual_iterations, -I's
# times_us and the document. Refused: a size that is none, outside sweep mode, and a -K that
# would leave the largest size no iteration for the statistics.
budget_case=(--backend mpi -b 1K -e 16K -f 4 -n 8 -w 0 -c 0 -I 1)
expect_exit 0 counted budget 2 "${budget_case[@]}" -s 16K -J "$WORK/budget_nccl.json" \
  --output "$WORK/budget.json"
cp "$WORK/out" "$WORK/budget.txt"
expect_exit 0 counted unbudgeted 2 "${budget_case[@]}" -J "$WORK/unbudgeted_nccl.json" \
  --output "$WORK/unbudgeted.json"
for rank in 0 1; do
  fewer=$(($(calls unbudgeted "$rank" MPI_Allreduce) - $(calls budget "$rank" MPI_Allreduce)))
  [ "$fewer" -eq 22 ] || fail "-s 16K rank $rank: $fewer MPI_Allreduce calls fewer, not 22"
done
python3 - "$WORK/budget_nccl.json" "$WORK/budget.json" <<'PY' || fail "-s 16K: iterations written"
import json, sys
nccl = json.load(open(sys.argv[1]))
want = {1024: 8, 4096: 4, 16384: 1}
assert {r["size"]: r["actual_iterations"] for r in nccl["results"]} == want, nccl["results"]
for r in nccl["results"]:
    for key in ("out_of_place_per_iter", "in_place_per_iter"):
        assert len(r[key]["times_us"]) == want[r["size"]], (r["size"], key, r[key])
doc = json.load(open(sys.argv[2]))["perfgate"]
assert doc["run"]["metadata"]["collectives"]["options"]["total_bytes"] == 16384
times = [r for r in doc["results"] if r["metric"] == "time"]
assert len(times) == 6 and all(r["extra"]["iterations"] == want[int(r["params"]["bytes"])] for r in times), times
PY
# The -J file and the table ingest as nccl-tests' own, every size a series.
if ingest_or_skip "$WORK/budget_nccl.json" && ingest_or_skip --format nccl-tests "$WORK/budget.txt"; then
  [ "$(sqlite3 "$WORK/store.db" "SELECT COUNT(DISTINCT r.series_id) FROM results r WHERE r.run_id = (SELECT MAX(id) FROM runs)")" -eq 18 ] \
    || fail "-s 16K: the ingested table does not hold 3 sizes x 2 placements x 3 metrics"
fi
expect_exit 2 run_collectives 1 --backend mpi -s 16Q --output "$WORK/budget_bad.json"
expect_in err '^perfgate-collectives: --tbytes'
[ "$(grep -c '^perfgate-collectives' "$WORK/err")" -eq 1 ] || { cat "$WORK/err"; fail "-s 16Q: not one line"; }
[ ! -e "$WORK/budget_bad.json" ] || fail "-s 16Q wrote a document"
expect_exit 2 run_collectives 1 --backend mpi --mode buckets -s 1M
expect_in err '^perfgate-collectives: --tbytes: applies to sweep mode only, not buckets$'
expect_exit 2 run_collectives 1 "${budget_case[@]}" -s 16K -K 1
expect_in err '^perfgate-collectives: --per_iter_skip 1: --tbytes 16384 leaves the largest size \(16384 B\) 1 iteration\(s\); skip fewer, so that one is left for the statistics$'
expect_exit 0 run_collectives 1 "${budget_case[@]}" -s 64K -K 1

# --- -N 3: the sweep runs three times over, each cycle printing its rows; in the document a
# case's samples gather over the cycles (3 x --repetitions 2), and the ingested table gives each
# series a sample per cycle. nccl-tests' -t 1 -g 1 -p 1 are taken as they are.
expect_exit 0 run_collectives 2 --backend mpi --collective all -b 1K -e 2K -n 2 -w 1 -N 3 \
  --repetitions 2 -t 1 -g 1 -p 1 --output "$WORK/cycles.json"
cp "$WORK/out" "$WORK/cycles.txt"
[ "$(awk '!/^#/ && NF == 13 && $5 == -1 && $4 == "sum" {print $1}' "$WORK/cycles.txt" | head -6 | tr '\n' ' ')" = "1024 2048 1024 2048 1024 2048 " ] \
  || { cat "$WORK/cycles.txt"; fail "-N 3: all_reduce's rows are not the sweep three times over"; }
[ "$(grep -cvE '^#|^$' "$WORK/cycles.txt")" -eq 60 ] || { cat "$WORK/cycles.txt"; fail "-N 3: not 10 collectives x 2 sizes x 3 cycles"; }
python3 "$HERE/check_run.py" "$WORK/cycles.txt" "$WORK/cycles.json" 2 || fail "-N 3: table or document"
python3 - "$WORK/cycles.json" <<'PY' || fail "-N 3: document"
import json, sys
doc = json.load(open(sys.argv[1]))["perfgate"]
assert doc["run"]["metadata"]["collectives"]["options"]["run_cycles"] == 3
counts = {len(r["samples"]) for r in doc["results"]}
assert counts == {6}, counts
assert len(doc["results"]) == 10 * 2 * 2 * 3, len(doc["results"])  # one series each, not per cycle
PY
if ingest_or_skip --format nccl-tests "$WORK/cycles.txt"; then
  [ "$(sqlite3 "$WORK/store.db" "SELECT DISTINCT r.n FROM results r JOIN runs u ON u.id = r.run_id WHERE u.suite = 'nccl-tests' AND u.id = (SELECT MAX(id) FROM runs)")" = 3 ] \
    || fail "-N 3: the ingested table's series do not hold 3 samples each"
fi

# --- -C 1: the time columns, headed cputime, show the host's launch time; algbw and busbw stay
# the operation's. The document keeps both: time and a fourth series, cputime, whose mean the
# table prints. The table ingests as cputime series.
expect_exit 0 run_collectives 2 --backend mpi -b 64K -e 64K -n 4 -w 1 -C 1 --output "$WORK/cputime.json"
cp "$WORK/out" "$WORK/cputime.txt"
expect_in cputime.txt '^#       size         count      type   redop    root  cputime   algbw   busbw  #wrong  cputime   algbw   busbw  #wrong $'
python3 - "$WORK/cputime.txt" "$WORK/cputime.json" <<'PY' || fail "-C 1: table against document"
import json, sys
row = [l.split() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")][0]
doc = json.load(open(sys.argv[2]))["perfgate"]
series = {(r["params"]["inplace"], r["metric"]): r for r in doc["results"]}
for inplace, base in (("0", 5), ("1", 9)):
    launch, time = series[(inplace, "cputime")], series[(inplace, "time")]
    assert launch["unit"] == "us" and launch["direction"] == "lower_is_better", launch
    mean = lambda v: sum(v) / len(v)
    # The time cell has 2 decimals below 10000 us, 1 below 100000 us, none above (the newest
    # nccl-tests' getFloatStr).
    shown = mean(launch["samples"])
    digits = 0.0051 if shown < 10000 else 0.051 if shown < 100000 else 0.51
    assert abs(float(row[base]) - shown) <= digits, (row, launch["samples"])
    algbw = 65536 / (mean(time["samples"]) * 1e3)
    assert abs(float(row[base + 1]) - algbw) <= 0.006, (row, time["samples"])
PY
if ingest_or_skip --format nccl-tests "$WORK/cputime.txt"; then
  [ "$(sqlite3 "$WORK/store.db" "SELECT DISTINCT s.metric FROM results r JOIN series s ON s.id = r.series_id WHERE r.run_id = (SELECT MAX(id) FROM runs) ORDER BY s.metric" | tr '\n' ' ')" = "algbw busbw cputime " ] \
    || fail "-C 1: the ingested table's metrics"
fi

# --- -O 0: in place only. The out-of-place cells are blank, as nccl-tests leaves them; the
# document holds in-place series only, and so does the ingested table (its reader places a lone
# group of values by the column it stands in).
expect_exit 0 run_collectives 2 --backend mpi --collective all -b 1K -e 1K -n 2 -w 1 -O 0 \
  --output "$WORK/inplace.json"
cp "$WORK/out" "$WORK/inplace.txt"
[ "$(awk '!/^#/ && NF {print NF}' "$WORK/inplace.txt" | sort -u)" = 9 ] \
  || { cat "$WORK/inplace.txt"; fail "-O 0: rows are not 5 leading columns and the in-place 4"; }
expect_in inplace.txt '^        1024           256     float     sum      -1 {34}[ 0-9.]{7}  [ 0-9.]{6}  '
python3 - "$WORK/inplace.json" <<'PY' || fail "-O 0: document"
import json, sys
doc = json.load(open(sys.argv[1]))["perfgate"]
assert doc["run"]["metadata"]["collectives"]["options"]["out_of_place"] is False
assert {r["params"]["inplace"] for r in doc["results"]} == {"1"}, doc["results"]
assert len(doc["results"]) == 10 * 3, len(doc["results"])
PY
if ingest_or_skip --format nccl-tests "$WORK/inplace.txt"; then
  [ "$(sqlite3 "$WORK/store.db" "SELECT DISTINCT json_extract(s.params, '\$.inplace') || ' ' || COUNT(*) FROM results r JOIN series s ON s.id = r.series_id WHERE r.run_id = (SELECT MAX(id) FROM runs)")" = "1 30" ] \
    || fail "-O 0: the ingested table is not 30 in-place series"
fi

# --- -u 3: every operation buffer starts 3 elements past its page-aligned allocation, as
# nccl-tests' unalign; the data check passes for every collective on the shifted buffers, and
# the interposer sees all_reduce's buffers 12 bytes (3 floats) into their pages, against 0 without.
expect_exit 0 run_collectives 3 --backend mpi --collective all -d float,double,bfloat16 -o sum,max \
  -b 1K -e 4K -f 4 -n 2 -w 1 -u 3 --output "$WORK/unaligned.json"
cp "$WORK/out" "$WORK/unaligned.txt"
expect_in unaligned.txt 'graph: 0 unalign: 3$'
expect_not_in unaligned.txt 'FAILED'
python3 "$HERE/check_run.py" "$WORK/unaligned.txt" "$WORK/unaligned.json" 3 || fail "-u 3: table or document"
python3 - "$WORK/unaligned.json" <<'PY' || fail "-u 3: document"
import json, sys
doc = json.load(open(sys.argv[1]))["perfgate"]
assert doc["fingerprint"]["comparable"]["collectives.launch"] == "-u 3", doc["fingerprint"]
assert doc["run"]["metadata"]["collectives"]["options"]["unalign"] == 3
PY
counted u3 2 -b 1K -e 1K -n 5 -w 1 -u 3 >/dev/null || fail "-u 3: counted run"
counted u0 2 -b 1K -e 1K -n 5 -w 1 >/dev/null || fail "-u 0: counted run"
[ "$(calls u3 0 MPI_Allreduce.recv_page_offset.12)" -ge 5 ] && [ "$(calls u3 0 MPI_Allreduce.send_page_offset.12)" -ge 5 ] \
  || { cat "$WORK/u3.0"; fail "-u 3: all_reduce's buffers are not 12 bytes into their pages"; }
[ "$(calls u0 0 MPI_Allreduce.recv_page_offset.12)" -eq 0 ] && [ "$(calls u0 0 MPI_Allreduce.recv_page_offset.0)" -ge 5 ] \
  || { cat "$WORK/u0.0"; fail "-u 0: all_reduce's buffers are not page-aligned"; }
expect_exit 2 run_collectives 1 --backend mpi -u 65537
expect_in err '^perfgate-collectives: --unalign: must be from 0 to 65536$'
expect_exit 2 run_collectives 1 --backend mpi --mode reference -u 1
expect_in err '^perfgate-collectives: --unalign: the reference mode.s loop runs on buffers of its own, aligned$'

# --- -r all: broadcast, reduce, gather and scatter at every root in turn, as nccl-tests' -r all,
# in its order (a type's ops, an op's roots, a root's sizes); the other collectives once, at
# root -1. Every root's data check passes, and the document and the ingested table keep one
# series a root.
expect_exit 0 run_collectives 3 --backend mpi --collective all -o sum,max -r all -b 1K -e 2K \
  -n 2 -w 1 --output "$WORK/roots.json"
cp "$WORK/out" "$WORK/roots.txt"
python3 "$HERE/check_run.py" "$WORK/roots.txt" "$WORK/roots.json" 3 || fail "-r all: table or document"
# rows_of PROGRAM: "redop:root:size" of each row of PROGRAM's table, in order.
rows_of() {
  awk -v p="$1" '/^# Collective test starting:/ {c = $NF} !/^#/ && NF == 13 && c == p {printf "%s:%s:%s ", $4, $5, $1}' "$WORK/roots.txt"
}
# by_root REDOP [SMALL LARGE]: the rows of every root; gather and scatter split the buffer over
# the 3 ranks, so their sizes round down to 1020 and 2040 bytes.
by_root() { for r in 0 1 2; do printf "%s:$r:${2:-1024} %s:$r:${3:-2048} " "$1" "$1"; done; }
[ "$(rows_of broadcast_perf)" = "$(by_root none)" ] || { cat "$WORK/roots.txt"; fail "-r all: broadcast rows $(rows_of broadcast_perf)"; }
for program in gather_perf scatter_perf; do
  [ "$(rows_of "$program")" = "$(by_root none 1020 2040)" ] || { cat "$WORK/roots.txt"; fail "-r all: $program rows $(rows_of "$program")"; }
done
[ "$(rows_of reduce_perf)" = "$(by_root sum)$(by_root max)" ] || { cat "$WORK/roots.txt"; fail "-r all: reduce rows $(rows_of reduce_perf)"; }
[ "$(rows_of all_reduce_perf)" = "sum:-1:1024 sum:-1:2048 max:-1:1024 max:-1:2048 " ] \
  || { cat "$WORK/roots.txt"; fail "-r all: all_reduce rows $(rows_of all_reduce_perf)"; }
python3 - "$WORK/roots.json" <<'PY' || fail "-r all: document"
import json, sys
doc = json.load(open(sys.argv[1]))["perfgate"]
assert doc["run"]["metadata"]["collectives"]["options"]["root"] == "all"
def roots(family, op=None):
    return sorted(r["params"]["root"] for r in doc["results"] if r["family"] == family
                  and r["metric"] == "time" and (op is None or r["params"]["redop"] == op))
assert roots("collectives.broadcast") == ["0"] * 4 + ["1"] * 4 + ["2"] * 4, roots("collectives.broadcast")
assert roots("collectives.reduce", "max") == ["0"] * 4 + ["1"] * 4 + ["2"] * 4, roots("collectives.reduce", "max")
assert roots("collectives.all_gather") == ["-1"] * 4, roots("collectives.all_gather")
PY
if ingest_or_skip --format nccl-tests "$WORK/roots.txt"; then
  [ "$(sqlite3 "$WORK/store.db" "SELECT json_extract(s.params, '\$.root') || ':' || COUNT(*) FROM results r JOIN series s ON s.id = r.series_id WHERE r.run_id = (SELECT MAX(id) FROM runs) AND s.family LIKE '%reduce' AND s.family NOT LIKE '%all_reduce' AND s.metric = 'time' GROUP BY json_extract(s.params, '\$.root') ORDER BY 1" | tr '\n' ' ')" = "0:8 1:8 2:8 " ] \
    || { sqlite3 "$WORK/store.db" "SELECT s.family, s.params FROM results r JOIN series s ON s.id = r.series_id WHERE r.run_id = (SELECT MAX(id) FROM runs)"; fail "-r all: the ingested reduce series are not 8 a root"; }
fi
expect_exit 2 run_collectives 3 --backend mpi --collective broadcast -r 3 --output "$WORK/noroot.json"
expect_in err '^perfgate-collectives: --root: 3 is not a rank \(0..2\)$'
[ ! -e "$WORK/noroot.json" ] || fail "-r 3 on 3 ranks wrote a document"
expect_exit 2 run_collectives 1 --backend mpi -r first
expect_in err "^perfgate-collectives: --root: 'first' is not a rank number or 'all'$"

# -R registers NCCL's buffers: the MPI backend has none to register and refuses rather than
# print a table that would say it did; -R 0 (above, with -f 1) is taken.
expect_exit 2 run_collectives 1 --backend mpi -R 1 --output "$WORK/registered.json"
expect_in err '^perfgate-collectives: --local_register 1: the MPI backend registers no buffers \(0 only; 1 and 2 are NCCL.s\)$'
[ ! -e "$WORK/registered.json" ] || fail "-R 1 wrote a document"
expect_exit 2 run_collectives 1 --backend mpi -R 3
expect_in err '^perfgate-collectives: --local_register 3: must be 0 \(none\), 1 \(ncclCommRegister\) or 2 \(symmetric windows\)$'

# nccl-tests options not taken are refused by name and reason, one line, nothing written.
expect_exit 2 run_collectives 1 --backend mpi -D 1 --output "$WORK/device_impl.json"
expect_in err '^perfgate-collectives: --device_implementation 1: an nccl-tests option perfgate-collectives does not take \(NCCL.s own implementation only\)$'
[ "$(grep -c '^perfgate-collectives' "$WORK/err")" -eq 1 ] || { cat "$WORK/err"; fail "-D: not one line"; }
[ ! -e "$WORK/device_impl.json" ] || fail "-D wrote a document"

# -x sets an NCCL communicator's CTA policy: the MPI backend has none and refuses rather than
# print a table that would say it was set; values other than 0, 1 and 2 are refused first.
expect_exit 2 run_collectives 1 --backend mpi -x 1 --output "$WORK/cta.json"
expect_in err '^perfgate-collectives: --cta_policy 1: the MPI backend has no CTAs \(NCCL.s communicators only\)$'
[ ! -e "$WORK/cta.json" ] || fail "-x 1 on MPI wrote a document"
expect_exit 2 run_collectives 1 --backend mpi --cta_policy 3
expect_in err '^perfgate-collectives: --cta_policy 3: must be 0 \(default\), 1 \(efficiency\) or 2 \(zero\)$'

# Refused: -N 0 (nccl-tests' endless run) and -N outside sweep mode, -C other than 0 or 1, and
# more than one thread or GPU per rank, which says how to launch the same instead.
expect_exit 2 run_collectives 1 --backend mpi -N 0 --output "$WORK/endless.json"
expect_in err '^perfgate-collectives: --run_cycles: must be from 1 to 65536 \(0, endless, writes no document\)$'
[ ! -e "$WORK/endless.json" ] || fail "-N 0 wrote a document"
expect_exit 2 run_collectives 1 --backend mpi --mode buckets -N 2
expect_in err '^perfgate-collectives: --run_cycles: applies to sweep mode only, not buckets$'
expect_exit 2 run_collectives 1 --backend mpi -C 2
expect_in err '^perfgate-collectives: --report_cputime: must be 0 or 1$'
expect_exit 2 run_collectives 1 --backend mpi -O 2
expect_in err '^perfgate-collectives: --out_of_place: must be 0 or 1$'
expect_exit 2 run_collectives 1 --backend mpi --mode overlap -O 0
expect_in err '^perfgate-collectives: --out_of_place: applies to sweep mode only, not overlap$'
expect_exit 2 run_collectives 1 --backend mpi -g 8
expect_in err '^perfgate-collectives: --ngpus: 8: perfgate-collectives runs one GPU per rank \(1 only\); start 8 times as many ranks instead \(mpirun -np, srun --ntasks-per-node\)$'
expect_exit 2 run_collectives 1 --backend mpi -t 2
expect_in err '^perfgate-collectives: --nthreads: 2: perfgate-collectives runs one GPU per rank'
expect_exit 2 run_collectives 1 --backend mpi -p 2
expect_in err '^perfgate-collectives: --parallel_init: must be 0 or 1$'

# Refused: -c below 0, -m below 1, -z other than 0 or 1, -z with a CUDA graph, and either outside sweep mode.
expect_exit 2 run_collectives 1 --backend mpi -c -1
expect_in err '^perfgate-collectives: --check: must not be negative$'
expect_exit 2 run_collectives 1 --backend mpi -m 0
expect_in err '^perfgate-collectives: --agg_iters: must be from 1 to 65536$'
expect_exit 2 run_collectives 1 --backend mpi -m 65537
expect_in err '^perfgate-collectives: --agg_iters: must be from 1 to 65536$'
expect_exit 2 run_collectives 1 --backend mpi -z 4
expect_in err '^perfgate-collectives: --blocking: must be 0, 1, 2 or 3$'
expect_exit 2 run_collectives 1 --backend mpi -z 1 -m 4
expect_in err '^perfgate-collectives: --blocking 1: waits after each operation, so --agg_iters groups nothing; use one of them \(-z 3 waits after each group\)$'
expect_exit 2 run_collectives 1 --backend mpi -z 2 -m 4
expect_in err '^perfgate-collectives: --blocking 2: waits after each operation'
expect_exit 2 run_collectives 1 --backend mpi -z 3 -G 2
expect_in err '^perfgate-collectives: --blocking: a CUDA graph'
expect_exit 2 run_collectives 1 --backend mpi -z 1 -G 2
expect_in err '^perfgate-collectives: --blocking: a CUDA graph \(--cudagraph\) replays with no host step between operations; use one of them$'
expect_exit 2 run_collectives 1 --backend mpi --mode buckets -m 2
expect_in err '^perfgate-collectives: --agg_iters: applies to sweep mode only, not buckets$'
expect_exit 2 run_collectives 1 --backend mpi --mode overlap -z 1
expect_in err '^perfgate-collectives: --blocking: applies to sweep mode only, not overlap$'
finish
