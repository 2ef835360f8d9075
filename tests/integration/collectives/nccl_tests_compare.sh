#!/usr/bin/env bash
# `perfgate compare <nccl-tests log> <perfgate-collectives document>` lines every case up: the
# nccl-tests ingester reads perfgate-collectives' stdout table (an nccl-tests table, column for
# column) into the same series ids as its document, so no series is MISSING or NEW, and with the
# fingerprint keys only one side knows ignored, every busbw series gets a ratio.
HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/../lib.sh"
source "$HERE/mpi_env.sh"

expect_exit 0 run_collectives 2 --backend mpi --collective all_reduce -d float,bf16 -o sum,max \
  -b 16K -e 1M -f 8 -n 5 -w 1 --output "$WORK/doc.json"
cp "$WORK/out" "$WORK/nccl-tests.log"

# check_verdicts REPORT NEED_RATIO: every busbw series of the document is in REPORT, none on one
# side only; with NEED_RATIO=1, each also has samples on both sides and a ratio.
check_verdicts() {
  python3 - "$WORK/doc.json" "$1" "$2" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
report = json.load(open(sys.argv[2]))
need_ratio = sys.argv[3] == "1"
wanted = {f'{r["family"]}/' + "/".join(f"{k}:{v}" for k, v in sorted(r["params"].items())) + "@busbw"
          for r in doc["perfgate"]["results"] if r["metric"] == "busbw"}
assert len(wanted) == 3 * 2 * 2 * 2, sorted(wanted)  # sizes x dtypes x redops x placements
verdicts = {v["series_id"]: v for v in report["verdicts"]}
unmatched = sorted(i for i, v in verdicts.items() if v["verdict"] in ("MISSING", "NEW"))
assert not unmatched, f"{len(unmatched)} series on one side only, e.g. {unmatched[:2]}"
assert wanted <= set(verdicts), f"not compared: {sorted(wanted - set(verdicts))[:2]}"
for i in wanted if need_ratio else ():
    v = verdicts[i]
    assert v["n_baseline"] >= 1 and v["n_candidate"] >= 1 and v["ratio"] is not None, v
print(f"{len(wanted)} busbw series matched", "with ratios" if need_ratio else "")
PY
}

# As it comes: the two sides' fingerprints differ (a log knows no build), yet every series pairs up.
set +e
"$PERFGATE" compare "$WORK/nccl-tests.log" "$WORK/doc.json" --format json -o "$WORK/plain.json" >"$WORK/out" 2>"$WORK/err"
rc=$?
set -e
[ "$rc" -eq 0 ] || [ "$rc" -eq 3 ] || { cat "$WORK/out" "$WORK/err"; fail "compare exited $rc"; }
check_verdicts "$WORK/plain.json" 0 || fail "series of the log and the document do not line up"

# As docs/collectives.md tells users to run it: ignore the keys that differ, 3 % tolerance.
ignore=()
for key in $(python3 -c 'import json,sys; print(" ".join(json.load(open(sys.argv[1]))["differing_keys"]))' \
    "$WORK/plain.json"); do
  ignore+=(--ignore-key "$key")
done
expect_exit 0 "$PERFGATE" compare "$WORK/nccl-tests.log" "$WORK/doc.json" "${ignore[@]}" --floor 0.03 \
  --format json -o "$WORK/ignored.json"
check_verdicts "$WORK/ignored.json" 1 || fail "no ratio for some series once fingerprints are ignored"
echo ok
