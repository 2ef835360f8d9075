#!/usr/bin/env bash
# Every CUDA kernel launch is followed by PERFGATE_CHECK_LAUNCH (issue 6: the last error checked
# after each launch). First proves the check finds a planted unchecked launch, and only it;
# then requires the real tree to have none.
source "$(dirname "$0")/../lib.sh"
check="$(dirname "$0")/launch_checks.py"

mkdir planted
cat >planted/launches.cu <<'CU'
void checked(float* x, cudaStream_t s) {
  scale_kernel<<<dim3(4, 1), 256, 0, s>>>(x, /* a comment; with a semicolon */ 2.0f);
  PERFGATE_CHECK_LAUNCH("scale_kernel");
}
void unchecked(float* x, cudaStream_t s) {
  scale_kernel<<<4, 256, 0, s>>>(x, 2.0f);
  // PERFGATE_CHECK_LAUNCH("scale_kernel"); (a comment does not check anything)
  other_call();
}
CU
[ "$(python3 "$check" planted)" = "planted/launches.cu:6" ] || { python3 "$check" planted; fail "the check did not single out line 6"; }

cd "$SOURCE_DIR"
files=$(git ls-files '*.cu' '*.cuh' '*.cpp' 2>/dev/null || find . -name '*.cu' -o -name '*.cuh' -o -name '*.cpp')
found=$(python3 "$check" $files)
[ -z "$found" ] || { echo "$found"; fail "kernel launches without PERFGATE_CHECK_LAUNCH after them"; }
echo "launch_checks: $(grep -c '<<<' $(grep -l '<<<' $files) | awk -F: '{n += $2} END {print n}') launches checked"
