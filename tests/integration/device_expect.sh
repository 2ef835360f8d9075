# Sourced by the GPU smoke scripts (tests/integration/*/..._device_check.sh, device_check.sh):
# expect NAME WANTED_RC RC [PATTERN...] prints one line per run and counts it as failed if the
# run did not exit as wanted or its output ($OUT/NAME.txt) lacks a PATTERN (grep -E). The script
# ends with `device_verdict LABEL`, whose status is that of the whole check; it repeats every
# verdict line, since scripts/device-run's summary shows only the end of a stage's log.
failures=0
verdicts=""
note() {
  echo "$1"
  verdicts+="$1"$'\n'
}
expect() {
  local name=$1 wanted=$2 rc=$3 verdict=ok pattern
  shift 3
  [ "$rc" -eq "$wanted" ] || verdict="FAIL (exit $rc, $wanted wanted)"
  for pattern in "$@"; do
    grep -qE -- "$pattern" "$OUT/$name.txt" || verdict="$verdict; FAIL (no '$pattern')"
  done
  [ "$verdict" = ok ] || failures=$((failures + 1))
  note "$name: ${verdict#ok; }"
}
# expect_file NAME PATH WANTED: WANTED is "present" or "absent".
expect_file() {
  local name=$1 path=$2 wanted=$3
  if [ -e "$path" ] && [ "$wanted" = absent ]; then
    note "$name: FAIL (${path##*/} was written)"; failures=$((failures + 1))
  elif [ ! -e "$path" ] && [ "$wanted" = present ]; then
    note "$name: FAIL (no ${path##*/})"; failures=$((failures + 1))
  fi
}
device_verdict() {
  printf '\n%s' "$verdicts"
  echo "$1 device check: $failures failed"
  [ "$failures" -eq 0 ]
}
