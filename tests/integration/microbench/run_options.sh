#!/usr/bin/env bash
# `perfgate run` options: --list, --filter, bad input (exit 2, nothing written), default output.
source "$(dirname "$0")/../lib.sh"
SUITES="$TEST_DATA/microbench/suites.toml"
expect_exit 0 "$PERFGATE" run --suites-file "$SUITES" --suite tiny --list
expect_in out '^softmax/backend:cpu/cols:512/dtype:f32/impl:fused/rows:64$'
[ "$(wc -l <"$WORK/out")" -eq 2 ] || fail "expected 2 cases"
expect_exit 0 "$PERFGATE" run --suites-file "$SOURCE_DIR/suites/suites.toml" --suite smoke --backend cpu \
  --filter 'attention.*causal:1.*varlen:1' --list
[ "$(wc -l <"$WORK/out")" -eq 2 ] || fail "--filter should leave naive and blocked"
expect_exit 2 "$PERFGATE" run --suites-file "$SUITES" --suite nope --no-store
expect_in err "no suite 'nope' \(known: faults, tiny\)"
expect_exit 2 "$PERFGATE" run --suites-file "$TEST_DATA/microbench/bad_suites.toml" --suite broken --no-store
expect_in err 'bad_suites.toml:5: suites.broken.sampling.min_samples: must be at least 1'
expect_exit 2 "$PERFGATE" run --suites-file "$SUITES" --suite tiny --filter '(' --no-store
expect_in err "--filter"
expect_exit 2 "$PERFGATE" run --suites-file "$SUITES" --suite tiny --filter 'nomatch' --no-store
expect_in err 'no case matches'
expect_exit 2 "$PERFGATE" run --suites-file "$SUITES" --suite tiny --label novalue --no-store
[ ! -d "$WORK/perfgate-results" ] || fail "bad input must write nothing"
# Default output: perfgate-results/<uuid>.json; --no-store leaves no store behind.
PERFGATE_DB="$WORK/never.db" expect_exit 0 "$PERFGATE" run --suites-file "$SUITES" --suite tiny --filter rmsnorm --no-store
ls "$WORK"/perfgate-results/*.json >/dev/null || fail "no document under perfgate-results/"
[ ! -e "$WORK/never.db" ] || fail "--no-store wrote the store"
