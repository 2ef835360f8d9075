#!/usr/bin/env bash
# perfgate-step-proxy refuses what it cannot build, before building it: a model larger than the
# memory its node has available (every rank of the node holds a copy; zero-filling it would call
# the kernel's out-of-memory killer), more tokens than an int counts, more than 2^40 parameters,
# or more than a million all-reduces a step. Each is exit 2 with one line and no document.
source "$(dirname "$0")/step_proxy_env.sh"
MPIRUN=(timeout 120 mpirun --oversubscribe -np 2 -x ASAN_OPTIONS=detect_leaks=0)

refused() {  # refused PATTERN ARGS...: exit 2, the pattern on stderr, one line, no document
  local pattern=$1; shift
  expect_exit 2 "${MPIRUN[@]}" "$PROXY" "$@" --output "$WORK/doc.json"
  expect_in err "$pattern"
  [ "$(grep -c '^perfgate-step-proxy:' "$WORK/err")" -eq 1 ] || { cat "$WORK/err"; fail "expected one line"; }
  [ ! -e "$WORK/doc.json" ] || fail "a document was written for a refused model"
}

# 64 layers of hidden 16384: 2.1e11 parameters, about 1.5 TiB of fp32 weights and gradients a rank.
refused '^perfgate-step-proxy: --layers 64 --hidden 16384 --batch 1 --seq 8: the model needs about [0-9.]+ GiB per rank \(2 ranks on this node: [0-9.]+ GiB\), more than 90 % of the memory available on the nodes of 2 of 2 ranks' \
  --layers 64 --hidden 16384 --heads 64 --batch 1 --seq 8 --bucket-bytes 67108864
refused 'more than 2\^40' --layers 8 --hidden 131072 --heads 64 --batch 1 --seq 8
refused '2147483647 tokens' --batch 65536 --seq 65536
refused '4 B buckets make 2.52e\+07 all-reduces a step' --layers 2 --hidden 1024 --heads 8 --bucket-bytes 4

# The limits leave the usual shapes alone.
expect_exit 0 "${MPIRUN[@]}" "$PROXY" "${TINY[@]}" --warmup 0 --iters 1 --repetitions 1 --output "$WORK/ok.json"
[ -s "$WORK/ok.json" ] || fail "no document from the tiny model"
echo ok
