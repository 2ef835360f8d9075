#!/usr/bin/env bash
# The ceilings of a run: measured once, before the cases, by a measuring child; kept in the
# run's metadata; every ok result's fraction of them exactly its own rate over the ceiling's;
# printed above the table. --no-ceilings leaves them out, and a child that cannot measure them
# is recorded as such while the cases still run.
source "$(dirname "$0")/../lib.sh"
SUITES="$TEST_DATA/microbench/suites.toml"

expect_exit 0 "$PERFGATE" run --suites-file "$SUITES" --suite tiny --no-store --output with.json
expect_in out '^ceilings cpu: copy [0-9.]+ GB/s$'
expect_in out '^case .* of ceiling$'
expect_in out '^softmax/.* [0-9.]+% copy$'
python3 - with.json <<'PY'
import json, sys
pg = json.load(open(sys.argv[1]))["perfgate"]
ceiling = pg["run"]["metadata"]["ceilings"]["cpu"]
assert ceiling["copy_gbps"] > 0.1, ceiling
assert ceiling["how"]["copy"]["bytes"] == 128 << 20, ceiling
assert "gemm_tflops" not in ceiling, ceiling  # the cpu backend has no GEMM ceiling
assert pg["results"], pg["results"]
for r in pg["results"]:
    c = r["extra"]["counters"]
    assert r["status"] == "ok", r
    assert abs(c["copy_fraction"] - c["gbps"] / ceiling["copy_gbps"]) < 1e-12 * c["copy_fraction"], c
    assert "ceiling_fraction" not in c and "gemm_fraction" not in c, c
PY

expect_exit 0 "$PERFGATE" run --suites-file "$SUITES" --suite tiny --no-store --no-ceilings --output without.json
expect_not_in out '^ceilings'
python3 - without.json <<'PY'
import json, sys
pg = json.load(open(sys.argv[1]))["perfgate"]
assert "ceilings" not in pg["run"]["metadata"], pg["run"]["metadata"]
assert all("copy_fraction" not in r["extra"]["counters"] for r in pg["results"])
PY

# A measuring program that fails at the ceilings but measures cases: the run goes on, says why.
printf '#!/bin/sh\ncase " $* " in *" --ceilings "*) echo "no copy today" >&2; exit 3;; esac\nexec "%s" "$@"\n' \
  "$(dirname "$PERFGATE")/perfgate-microbench" >"$WORK/flaky-runner"
chmod +x "$WORK/flaky-runner"
PERFGATE_MICROBENCH="$WORK/flaky-runner" expect_exit 0 "$PERFGATE" run --suites-file "$SUITES" --suite tiny \
  --no-store --output failed.json
expect_in out '^ceilings cpu: not measured: measuring process exit 3: no copy today$'
[ "$(sed -n 2p "$WORK/out" | cut -c1-4)" = "case" ] || { cat "$WORK/out"; fail "the table header must follow the ceilings line"; }
python3 - failed.json <<'PY'
import json, sys
pg = json.load(open(sys.argv[1]))["perfgate"]
assert "no copy today" in pg["run"]["metadata"]["ceilings"]["cpu"]["error"], pg["run"]["metadata"]
assert [r["status"] for r in pg["results"]] == ["ok", "ok"], pg["results"]
assert all("copy_fraction" not in r["extra"]["counters"] for r in pg["results"])
PY

# The measuring program alone: a backend without ceilings is refused by name.
expect_exit 2 "$(dirname "$PERFGATE")/perfgate-microbench" --ceilings tpu --output "$WORK/c.json"
expect_in err "--ceilings: backend 'tpu' measures no ceilings here"
[ ! -e "$WORK/c.json" ] || fail "a refused --ceilings wrote its output"
