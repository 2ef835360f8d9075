#!/usr/bin/env bash
# perfgate-step-proxy's gradient check over real mpirun ranks: a whole run reports every bucket
# summed, exactly in the exact pass; a bucket that is never all-reduced in the steps
# (--skip-bucket) or in the exact pass (--skip-exact-bucket) fails the run with one line from
# rank 0 naming it, exit 1 (a data check failed) and no document.
source "$(dirname "$0")/step_proxy_env.sh"
SHAPE=("${TINY[@]}" --warmup 1 --iters 2 --repetitions 2)  # 6 buckets
MPIRUN=(timeout 120 mpirun --oversubscribe -np 2 -x ASAN_OPTIONS=detect_leaks=0)

expect_exit 0 "${MPIRUN[@]}" "$PROXY" "${SHAPE[@]}" --output "$WORK/ok.json"
expect_in out "^# exact pass: 6 buckets, 98304 gradients per rank, every sum over 2 ranks exact$"
expect_in out "^# gradient check: 6 buckets summed over 2 ranks"
python3 - "$WORK/ok.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["perfgate"]["run"]["metadata"]["step_proxy"]["gradient_check"]
assert c["made"] and c["buckets"] == 6 and c["ranks"] == 2, c
assert 0 <= c["worst_deviation"] <= c["tolerance"] < 1e-6, c
assert c["exact_pass"] == {"buckets": 6, "elements_per_rank": 98304}, c
PY

for bucket in 0 3 5; do
  expect_exit 1 "${MPIRUN[@]}" "$PROXY" "${SHAPE[@]}" --skip-bucket "$bucket" --output "$WORK/bad.json"
  expect_in err "^perfgate-step-proxy: gradient check: bucket $bucket of 6 .*deviation 50 %"
  [ "$(grep -c '^perfgate-step-proxy:' "$WORK/err")" -eq 1 ] || { cat "$WORK/err"; fail "expected one line from rank 0"; }
  [ ! -e "$WORK/bad.json" ] || fail "a document was written after a failed gradient check"
done

# The exact pass: a bucket it leaves out keeps the ranks' own terms, unlike the exact sum on
# every element where the other rank adds one (the pattern gives each element two ranks' terms).
for bucket in 0 5; do
  expect_exit 1 "${MPIRUN[@]}" "$PROXY" "${SHAPE[@]}" --skip-exact-bucket "$bucket" --output "$WORK/bad.json"
  expect_in err "^perfgate-step-proxy: gradient check: bucket $bucket of 6 .*: after the exact pass 2 of the 2 ranks hold gradients unlike their exact sum, [0-9]+ in all \([0-9]+ per rank in the bucket\)"
  [ "$(grep -c '^perfgate-step-proxy:' "$WORK/err")" -eq 1 ] || { cat "$WORK/err"; fail "expected one line from rank 0"; }
  [ ! -e "$WORK/bad.json" ] || fail "a document was written after a failed exact pass"
done

expect_exit 2 "$PROXY" "${SHAPE[@]}" --skip-bucket 6 --output "$WORK/bad.json"
expect_in err "^perfgate-step-proxy: --skip-bucket: is not a bucket of this model \(it has 6"
expect_exit 2 "$PROXY" "${SHAPE[@]}" --skip-exact-bucket 6 --output "$WORK/bad.json"
expect_in err "^perfgate-step-proxy: --skip-exact-bucket: is not a bucket of this model \(it has 6"
echo ok
