#!/usr/bin/env bash
# The same weak all_reduce sweep over two virtual Slurm nodes: srun steps, then sbatch jobs;
# then perfgate-collectives as an srun step whose labelled output ingests.
source "$(dirname "$0")/../lib.sh"
# OpenMPI keeps its allocations until exit by design: no leak reports from sanitizer builds of the ranks.
RANK_ENV=(--env ASAN_OPTIONS=detect_leaks=0)
source "$(dirname "$0")/slurm_env.sh"
PLANS=$TEST_DATA/scaling/sweeps.toml

for launcher in slurm sbatch; do
  expect_exit 0 "$PERFGATE" sweep ar_slurm --plan-file "$PLANS" --launcher $launcher "${RANK_ENV[@]}" --work-dir "$WORK/$launcher" --no-store
  cat "$WORK/out"
  if ! grep -qE "launcher $launcher\): 2/2 points" "$WORK/out"; then
    # The jobs' own logs say why a point is missing (a rank's signal, srun's complaint).
    tail -n 20 "$WORK/$launcher"/*/slurm-*.out 2>/dev/null || true
    fail "a point of the $launcher sweep is missing"
  fi
  python3 - "$WORK/$launcher/sweep.json" $launcher <<'PY'
import json, re, subprocess, sys
doc = json.load(open(sys.argv[1]))["perfgate"]
sweep = doc["run"]["metadata"]["sweep"]
assert sweep["launcher_labels"]["slurm.mpi"] in ("pmix", "pmi2", "none"), sweep["launcher_labels"]
for p in sweep["points"]:
    assert p["status"] == "ok", p
    assert p["job_id"], p
    assert p["nodelist"], p
two = [p for p in sweep["points"] if p["nodes"] == 2][0]
assert two["nodelist"] == "n[1-2]", two
t = [r for r in doc["results"] if r["metric"] == "time" and r["scale"]["nodes"] == 2][0]
assert sorted(t["extra"]["rank_hosts"].values()) == ["n1", "n2"], t["extra"]["rank_hosts"]
eff = [r for r in doc["results"] if r["metric"] == "efficiency" and r["scale"]["nodes"] == 2]
assert eff and eff[0]["summary"]["median"] > 0
# Every point's job had its nodes to itself (srun's too: it made its own allocation).
spans = []
for p in sweep["points"]:
    job = p["job_id"].split(".")[0]
    info = subprocess.run(["scontrol", "show", "job", "-o", job], capture_output=True,
                          text=True, check=True).stdout
    assert " OverSubscribe=NO " in info, (sys.argv[2], info)
    spans.append(tuple(re.search(f" {k}=(\\S+)", info).group(1) for k in ("StartTime", "EndTime")))
# The points ran one after the other: srun's in turn, the batch points (submitted at once,
# both on n1) because each had its nodes to itself.
(s1, e1), (s2, e2) = sorted(spans)
assert e1 <= s2, f"the points' jobs overlapped: {spans}"
PY
done
# perfgate-collectives as a job step of its own, its lines labelled by srun (--label: "0: "),
# with the MPI plugin the sweep chose: the log ingests as rank 0's table, of 2 ranks.
plugin=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["perfgate"]["run"]["metadata"]["sweep"]["launcher_labels"]["slurm.mpi"])' "$WORK/slurm/sweep.json")
OMPI_MCA_btl=self,tcp OMPI_MCA_pml=ob1 ASAN_OPTIONS=detect_leaks=0 expect_exit 0 \
  srun --nodes 2 --ntasks 2 --exclusive --label --mpi="$plugin" \
  "$BUILD_DIR/microbench/collectives/perfgate-collectives" --backend mpi \
  --collective all_reduce,broadcast -b 1K -e 4K -f 4 -n 2 -w 1
cp "$WORK/out" "$WORK/labelled.txt"
grep -q '^0: # Collective test starting: broadcast_perf$' "$WORK/labelled.txt" ||
  fail "srun --label did not label the table"
expect_exit 0 "$PERFGATE" ingest --db "$WORK/labelled.db" "$WORK/labelled.txt"
python3 - "$WORK/labelled.db" <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
scales = db.execute("SELECT DISTINCT scale_ranks FROM results").fetchall()
assert scales == [(2,)], scales
count = db.execute("SELECT COUNT(*) FROM results").fetchone()[0]
assert count == 2 * 2 * 2 * 3, count  # operations x sizes x placements x metrics
meta = json.loads(db.execute("SELECT metadata FROM runs").fetchone()[0])["nccl_tests"]
assert meta["launcher_tags"] == {"style": "slurm", "rank": "0"}, meta
PY
# Inside an allocation a point is a step on the allocation's nodes: srun asks for nothing more.
SLURM_JOB_ID=7 expect_exit 0 "$PERFGATE" sweep ar_slurm --plan-file "$PLANS" --launcher slurm --plan
expect_not_in out "--exclusive"
[ -s "$WORK/sbatch/N2xR1/point.sbatch" ] || fail "sbatch script not kept"
grep -q "^#SBATCH --nodes=2" "$WORK/sbatch/N2xR1/point.sbatch" || fail "sbatch script lacks --nodes=2"
