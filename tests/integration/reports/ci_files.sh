#!/usr/bin/env bash
# The pipelines in ci/ are valid YAML and call only perfgate's scripts (which exist and are
# tested here): no gate or nightly logic lives in a pipeline file.
source "$(dirname "$0")/../lib.sh"
cd "$SOURCE_DIR"
for f in ci/github/*.yml ci/gitlab/*.yml; do
  python3 -c 'import sys, yaml; yaml.safe_load(open(sys.argv[1]))' "$f" || fail "$f is not valid YAML"
  grep -qE 'scripts/(premerge|nightly)' "$f" || fail "$f calls neither scripts/premerge nor scripts/nightly"
  grep -qE 'perfgate (gate|report|detect|baseline)' "$f" && fail "$f calls perfgate directly: put that in a script"
  for s in $(grep -oE 'scripts/[a-z_-]+' "$f" | sort -u); do
    [ -x "$s" ] || fail "$f uses $s, which is not an executable script"
  done
done
for s in scripts/premerge scripts/nightly; do
  bash -n "$s" || fail "$s: syntax error"
  "$s" --help >/dev/null || fail "$s --help failed"
  set +e; "$s" --no-such-option >/dev/null 2>"$WORK/err"; rc=$?; set -e
  [ "$rc" -eq 2 ] || fail "$s: unknown option gave exit $rc, not 2"
  grep -q "unknown option '--no-such-option'" "$WORK/err" || fail "$s: unclear usage error"
done
