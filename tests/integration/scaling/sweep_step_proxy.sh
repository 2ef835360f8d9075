#!/usr/bin/env bash
# Step-proxy sweep: the decomposition (compute + exposed communication) adds up to the step
# time within 5 %, and every point carries comm, overlap, MFU and the proxy's gradient check.
source "$(dirname "$0")/../lib.sh"
# OpenMPI keeps its allocations until exit by design: no leak reports from sanitizer builds of the ranks.
RANK_ENV=(--env ASAN_OPTIONS=detect_leaks=0)
expect_exit 0 "$PERFGATE" sweep proxy --plan-file "$TEST_DATA/scaling/sweeps.toml" "${RANK_ENV[@]}" --work-dir "$WORK/w" --no-store
cat "$WORK/out"
expect_in out "step-time decomposition"
python3 - "$WORK/w/sweep.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))["perfgate"]["run"]["metadata"]["sweep"]
for p in doc["points"]:
    assert p["status"] == "ok", p
    d = p["cases"][0]["decomposition"]
    explained = d["compute_time"] + d["exposed_comm_time"]
    gap = abs(d["step_time"] - explained) / d["step_time"]
    print(p["label"], d, "unexplained %.1f%%" % (100 * gap))
    assert gap <= 0.05, "%s: compute + exposed = %.0f us vs step %.0f us" % (p["label"], explained, d["step_time"])
    assert 0 <= d["overlap_fraction"] <= 1 and d["mfu"] > 0
    if p["ranks"] > 1:
        assert d["comm_time"] > 0
    g = p["cases"][0]["checks"]["gradient_check"]  # the proxy's check travels with its point
    assert g["made"] and g["ranks"] == p["ranks"] and g["worst_deviation"] <= g["tolerance"], g
PY
