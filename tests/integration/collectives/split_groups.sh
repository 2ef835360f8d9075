#!/usr/bin/env bash
# nccl-tests' rank split under real mpirun processes: NCCL_TESTS_SPLIT ("MOD 2") and
# NCCL_TESTS_SPLIT_MASK divide 4 ranks into groups that each run the operations on their own
# communicator. Each group's data check passes, the bus factor is the group's, every rank's time
# is in the document, the device lines name each rank's group, rank 0's setting decides, and the
# table ingests as a split run; malformed or uneven splits are refused.
HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/../lib.sh"
source "$HERE/mpi_env.sh"

# --- MOD 2 on 4 ranks, every collective: groups {0, 2} and {1, 3}.
NCCL_TESTS_SPLIT="MOD 2" expect_exit 0 run_collectives 4 --backend mpi --collective all \
  -b 1K -e 16K -f 4 -n 3 -w 1 --straggler-floor-us 1e9 --output "$WORK/mod.json" \
  -J "$WORK/mod_nt.json"
cp "$WORK/out" "$WORK/mod.txt"
for rank in 0 1 2 3; do
  expect_in mod.txt "^#  Rank  $rank Group  $((rank % 2)) Pid "
done
python3 - "$WORK/mod.txt" "$WORK/mod.json" "$WORK/mod_nt.json" <<'PY' || fail "MOD 2: table or document"
import json, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
assert len(rows) == 10 * 3, len(rows)
for r in rows:
    # The data check of each group's operation: a pattern of the world's ranks would be wrong.
    assert r[8] == "0" and (r[12] in ("0", "N/A")), r
doc = json.load(open(sys.argv[2]))["perfgate"]
meta = doc["run"]["metadata"]["collectives"]
assert meta["split"] == {"setting": "NCCL_TESTS_SPLIT=MOD 2", "groups": 2, "group_ranks": 2}, meta["split"]
assert [r["group"] for r in meta["ranks"]] == [0, 1, 0, 1], meta["ranks"]
# nccl-tests' bus factors for a group of 2 (not 4): all_reduce 2(n-1)/n, the split ones (n-1)/n.
factors = {"all_reduce": 1.0, "all_gather": 0.5, "reduce_scatter": 0.5, "alltoall": 0.5,
           "broadcast": 1.0, "reduce": 1.0, "sendrecv": 1.0, "gather": 0.5, "scatter": 0.5,
           "hypercube": 1.0}
times = [x for x in doc["results"] if x["metric"] == "time"]
assert len(times) == 10 * 3 * 2, len(times)
for x in times:
    op = x["family"].split(".")[1]
    assert x["params"]["groups"] == "2", x["params"]
    assert x["extra"]["busbw_factor"] == factors[op], (op, x["extra"]["busbw_factor"])
    assert len(x["extra"]["per_rank_us"]) == 4, x["extra"]  # every group's ranks
    if x["params"]["root"] != "-1":
        assert x["params"]["root"] == "0", x["params"]
j = json.load(open(sys.argv[3]))
assert [d["group"] for d in j["config"]["devices"]] == [0, 1, 0, 1], j["config"]["devices"]
PY
if ingest_or_skip --format nccl-tests "$WORK/mod.txt"; then
  sqlite3 "$WORK/store.db" "SELECT params FROM series WHERE family='collectives.all_reduce'" >"$WORK/params"
  expect_in params '"groups":"2"'
  ingest_or_skip "$WORK/mod.json"
fi

# --- -r all runs every root of a group (0 and 1), and --root must be a group's rank.
NCCL_TESTS_SPLIT="MOD 2" expect_exit 0 run_collectives 4 --backend mpi --collective broadcast \
  -b 1K -e 1K -n 1 -w 0 -r all
[ "$(grep -cE '^ +1024 +256 +float +none +[01] ' "$WORK/out")" -eq 2 ] ||
  { cat "$WORK/out"; fail "-r all under MOD 2: not roots 0 and 1"; }
NCCL_TESTS_SPLIT="MOD 2" expect_exit 2 run_collectives 4 --backend mpi --collective broadcast -r 2
expect_in err '^perfgate-collectives: --root: 2 is not a rank of a group \(0\.\.1\)$'

# --- NCCL_TESTS_SPLIT_MASK wins, as in nccl-tests: 0x2 makes groups {0, 1} and {2, 3}; the
# reference loop runs in each group.
NCCL_TESTS_SPLIT_MASK=0x2 NCCL_TESTS_SPLIT="MOD 2" expect_exit 0 run_collectives 4 --backend mpi \
  --mode reference -b 1K -e 1K -n 2 -w 1
expect_in out '^# Reference: plain MPI_Allreduce loop, float sum, 2 ranks in each of 2 groups$'
NCCL_TESTS_SPLIT_MASK=0x2 expect_exit 0 run_collectives 4 --backend mpi -b 1K -e 1K -n 1 -w 0
for rank in 0 1 2 3; do
  expect_in out "^#  Rank  $rank Group  $((rank & 2)) Pid "
done

# --- Rank 0's environment decides: the other ranks get no split setting and still run split.
expect_exit 0 mpirun --oversubscribe -np 1 -x NCCL_TESTS_SPLIT="DIV 2" "$COLLECTIVES" --backend mpi \
  -b 1K -e 1K -n 1 -w 0 : -np 3 "$COLLECTIVES" --backend mpi -b 1K -e 1K -n 1 -w 0
for rank in 0 1 2 3; do
  expect_in out "^#  Rank  $rank Group  $((rank / 2)) Pid "
done

# --- Refused before anything runs, on every rank: uneven groups, an unknown operation.
NCCL_TESTS_SPLIT="MOD 3" expect_exit 2 run_collectives 4 --backend mpi
expect_in err '^perfgate-collectives: NCCL_TESTS_SPLIT=MOD 3: splits the 4 ranks into groups of unequal size: 2 \(group 0\), 1 \(group 1\), 1 \(group 2\) ranks; a table.s bus bandwidth has one group size$'
NCCL_TESTS_SPLIT="XOR 2" expect_exit 2 run_collectives 4 --backend mpi
expect_in err '^perfgate-collectives: NCCL_TESTS_SPLIT=XOR 2: not an operation and a number'
expect_not_in out 'Collective test starting'

finish
