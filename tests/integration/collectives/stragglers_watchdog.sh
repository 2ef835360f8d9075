#!/usr/bin/env bash
# --delay-rank: a rank that sleeps inside each timed operation is named as the straggler; one
# that sleeps past --timeout-s fires the watchdog: exit 5, a partial document naming the case.
HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/../lib.sh"
source "$HERE/mpi_env.sh"

# Straggler: rank 1 of 3 sleeps 3 ms in every timed all_reduce.
expect_exit 0 run_collectives 3 --backend mpi -b 1K -e 1K -n 4 -w 1 \
  --delay-rank 1 --delay-us 3000 --straggler-margin 10% --output "$WORK/straggler.json"
expect_in out '^# Straggler: rank 1 \(.+\) all_reduce float sum 1024 B out-of-place'
expect_in out '^# Straggler: rank 1 \(.+\) all_reduce float sum 1024 B in-place'
expect_not_in out '^# Straggler: rank [02] '
python3 - "$WORK/straggler.json" <<'PY' || fail "straggler document"
import json, sys
doc = json.load(open(sys.argv[1]))
meta = doc["perfgate"]["run"]["metadata"]["collectives"]
assert {s["rank"] for s in meta["stragglers"]} == {1}, meta["stragglers"]
assert all(s["host"] for s in meta["stragglers"])
for r in doc["perfgate"]["results"]:
    if r["metric"] == "time":
        per_rank = r["extra"]["per_rank_us"]
        assert per_rank[1] > 2500 and per_rank[1] == max(per_rank), per_rank
        assert r["extra"]["stragglers"] == [1], r["extra"]
PY

# Without a delay nobody is named. On a shared 2-core machine a rank that is descheduled once
# loses hundreds of microseconds (seen under ASan: 858 us against 14 us for a 1 KiB operation),
# which is real but not what this checks: a 1 ms floor, still a third of the delay above.
expect_exit 0 run_collectives 2 --backend mpi -b 1K -e 4K -n 20 -w 1 --straggler-floor-us 1000
expect_not_in out '^# Straggler'

# Watchdog: rank 1 sleeps 20 s inside the first timed operation; the limit is 1 s.
start=$(date +%s)
expect_exit 5 run_collectives 2 --backend mpi -b 1K -e 1K -n 2 -w 1 \
  --delay-rank 1 --delay-us 20000000 --timeout-s 1 --output "$WORK/hang.json"
elapsed=$(( $(date +%s) - start ))
[ "$elapsed" -lt 15 ] || fail "the watchdog took ${elapsed} s to end a 1 s timeout"
expect_in err 'watchdog: all_reduce float 1024 B out-of-place did not complete within 1 s'
expect_in out '^# Watchdog: '
python3 - "$WORK/hang.json" <<'PY' || fail "partial document"
import json, sys
doc = json.load(open(sys.argv[1]))
run = doc["perfgate"]["run"]
assert run["status"] == "partial", run["status"]
timeouts = [r for r in doc["perfgate"]["results"] if r["status"] == "timeout"]
assert len(timeouts) == 1, timeouts
t = timeouts[0]
assert t["family"] == "collectives.all_reduce" and t["params"]["bytes"] == "1024", t
assert "rank 0" in t["message"] and "1024 B" in t["message"], t["message"]
assert run["metadata"]["collectives"]["timeouts"][0]["bytes"] == 1024
PY
if ingest_or_skip "$WORK/hang.json"; then expect_in ingest.out '.'; fi

# A broadcast root is done early and waits for its peers in the exchange of timings: the watchdog
# still covers it, so the root writes the partial document while rank 1 is stuck.
expect_exit 5 run_collectives 2 --backend mpi --collective broadcast -b 1K -e 1K -n 2 -w 1 \
  --delay-rank 1 --delay-us 20000000 --timeout-s 1 --output "$WORK/hang_bcast.json"
python3 - "$WORK/hang_bcast.json" <<'PY' || fail "partial broadcast document"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["perfgate"]["run"]["status"] == "partial"
assert [r["family"] for r in doc["perfgate"]["results"] if r["status"] == "timeout"] == ["collectives.broadcast"]
PY
finish
