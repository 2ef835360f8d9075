# Shared helpers for integration scripts: sourced, never run.
set -euo pipefail
WORK=$(mktemp -d "${TMPDIR:-/tmp}/perfgate-it.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"

fail() { echo "FAIL: $*" >&2; exit 1; }

# expect_exit CODE CMD...: runs CMD, captures stdout/stderr in $WORK/out and $WORK/err.
expect_exit() {
  local want=$1; shift
  set +e
  "$@" >"$WORK/out" 2>"$WORK/err"
  local got=$?
  set -e
  if [ "$got" -ne "$want" ]; then
    echo "--- stdout"; cat "$WORK/out"; echo "--- stderr"; cat "$WORK/err"
    # A script may define explain_failure to print what it wrote (a report's verdict reasons).
    if declare -F explain_failure >/dev/null; then explain_failure || true; fi
    fail "expected exit $want, got $got from: $*"
  fi
}
# phased_perfgate PATH N EARLY LATE: writes an executable PATH that runs $PERFGATE with the
# environment assignments EARLY (NAME=VALUE ..., or empty) for its first N invocations and LATE
# for the rest, counting its invocations in PATH.count: a build that changes between processes.
phased_perfgate() {
  printf '#!/bin/sh\nn=$(cat "%s.count" 2>/dev/null || echo 0)\necho $((n + 1)) >"%s.count"\nif [ "$n" -lt %d ]; then exec env %s "%s" "$@"; fi\nexec env %s "%s" "$@"\n' \
    "$1" "$1" "$2" "$3" "$PERFGATE" "$4" "$PERFGATE" >"$1"
  chmod +x "$1"
}
invocations() { cat "$1.count"; }
expect_in() { grep -qE -- "$2" "$WORK/$1" || { cat "$WORK/$1"; fail "'$2' not in $1"; }; }
expect_not_in() { ! grep -qE -- "$2" "$WORK/$1" || { cat "$WORK/$1"; fail "'$2' unexpectedly in $1"; }; }
