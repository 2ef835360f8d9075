#pragma once
// Kernels that stage tiles in more than 48 KB of dynamic shared memory must raise their limit
// first, and a GPU may allow less than they need: the opt-in maximum per block is 227 KB on
// Hopper, 163 KB on A100 but 99 KB on the sm_86/sm_89 chips an sm_80 binary also runs on.

namespace perfgate::cuda {

// Raises `kernel`'s dynamic shared memory limit to `bytes` on the current device, once per
// kernel and device; Unsupported naming `kernel_name` when the device allows less per block.
void reserve_shared_memory(const void* kernel, int bytes, const char* kernel_name);

}  // namespace perfgate::cuda
