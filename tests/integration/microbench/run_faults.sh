#!/usr/bin/env bash
# Isolation: a crashing, a hanging and a miscomputing case are recorded (crashed, timeout,
# error) and the run goes on: the cases after them are measured and the document is written.
source "$(dirname "$0")/../lib.sh"
# AddressSanitizer turns a SIGSEGV into a report and exit 1; these checks need the signal itself.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0"
SUITES="$TEST_DATA/microbench/suites.toml"
status_of() {  # status_of DOC FAMILY -> status of that family's result
  python3 -c "import json,sys;d=json.load(open(sys.argv[1]));print([r['status'] for r in d['perfgate']['results'] if r['family']==sys.argv[2]][0])" "$1" "$2"
}
run_status() { python3 -c "import json,sys;d=json.load(open(sys.argv[1]));p=d['perfgate'];print(p.get('run',p)['status'])" "$1"; }
message_of() {
  python3 -c "import json,sys;d=json.load(open(sys.argv[1]));print([r['message'] for r in d['perfgate']['results'] if r['family']==sys.argv[2]][0])" "$1" "$2"
}

PERFGATE_TEST_FAULT=crash expect_exit 1 "$PERFGATE" run --suites-file "$SUITES" --suite faults --db "$WORK/s.db" --output "$WORK/crash.json"
[ "$(status_of "$WORK/crash.json" test_fault)" = crashed ] || fail "crash not recorded"
message_of "$WORK/crash.json" test_fault | grep -q 'signal 11' || fail "signal not named"
[ "$(status_of "$WORK/crash.json" rmsnorm)" = ok ] || fail "the run did not go on after the crash"
[ "$(run_status "$WORK/crash.json")" = partial ] || fail "a run with a crash must be partial"
expect_in out 'crashed'

# The limit holds for every case: 4 s leaves the healthy cases room on a loaded machine (at 1 s,
# rmsnorm once timed out too while 2 cores ran 4 MPI ranks and a build); the hang spins forever.
PERFGATE_TEST_FAULT=hang expect_exit 1 "$PERFGATE" run --suites-file "$SUITES" --suite faults --no-store \
  --case-timeout 4 --output "$WORK/hang.json"
[ "$(status_of "$WORK/hang.json" test_fault)" = timeout ] || fail "hang not recorded as timeout"
message_of "$WORK/hang.json" test_fault | grep -q 'time limit of 4 s' || fail "limit not named"
[ "$(status_of "$WORK/hang.json" rmsnorm)" = ok ] || fail "the run did not go on after the hang"
[ "$(run_status "$WORK/hang.json")" = partial ] || fail "a run with a timeout must be partial"

PERFGATE_TEST_FAULT=wrong expect_exit 1 "$PERFGATE" run --suites-file "$SUITES" --suite faults --no-store --output "$WORK/wrong.json"
[ "$(status_of "$WORK/wrong.json" test_fault)" = error ] || fail "wrong output not failed"
message_of "$WORK/wrong.json" test_fault | grep -q 'correctness: relative error' || fail "check error not in the document"
[ "$(run_status "$WORK/wrong.json")" = complete ] || fail "a failed check alone leaves the run complete"

# Without the variable the fault family has no cases.
expect_exit 0 "$PERFGATE" run --suites-file "$SUITES" --suite faults --list
expect_not_in out test_fault
