#!/usr/bin/env bash
# Issue 6: every CUDA, cuBLAS, cuDNN and NCCL call checked, and the last error checked after each
# kernel launch. First proves the checker on planted code (it must name exactly the unchecked
# launch and the status thrown away, not the checked, used, discarded-on-purpose or release
# calls, nor comments and string literals); then requires the real tree to have none.
source "$(dirname "$0")/../lib.sh"
check="$(dirname "$0")/cuda_call_checks.py"

mkdir planted
cat >planted/calls.cu <<'CU'
#define CHECKED(call) check((call), #call)
void checked(float* x, cudaStream_t s) {
  scale_kernel<<<dim3(4, 1), 256, 0, s>>>(x, /* a comment; with a semicolon */ 2.0f);
  PERFGATE_CHECK_LAUNCH("scale_kernel");
  PERFGATE_CUDA_CHECK(cudaStreamSynchronize(s));
  const cudaError_t status = cudaStreamQuery(s);
  if (cudaGetDeviceCount(&n) != cudaSuccess) return;
  (void)cudaGetLastError();
  if (x) cudaFree(x);
  report("setup: cudaMemsetAsync (a call named in a message) is text", '\'');
}
void unchecked(float* x, cudaStream_t s) {
  scale_kernel<<<4, 256, 0, s>>>(x, 2.0f);
  // PERFGATE_CHECK_LAUNCH("scale_kernel"); (a comment does not check anything)
  cudaMemsetAsync(x, 0, 16, s);
}
CU
want="planted/calls.cu:13: kernel launch without PERFGATE_CHECK_LAUNCH
planted/calls.cu:15: cudaMemsetAsync status not checked"
[ "$(python3 "$check" planted)" = "$want" ] || { python3 "$check" planted; fail "the checker did not name exactly lines 13 and 15"; }

cd "$SOURCE_DIR"
files=$(git ls-files '*.cu' '*.cuh' '*.cpp' '*.hpp' 2>/dev/null ||
  find . -name '*.cu' -o -name '*.cuh' -o -name '*.cpp' -o -name '*.hpp')
found=$(python3 "$check" $files)
[ -z "$found" ] || { echo "$found"; fail "unchecked CUDA library calls or kernel launches"; }
echo "cuda_call_checks: $(grep -c '<<<' $(grep -l '<<<' $files) | awk -F: '{n += $2} END {print n}') launches and every library call checked"
