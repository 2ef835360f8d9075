#include "nccl_buffer.hpp"

#include <cuda_runtime.h>
#include <dlfcn.h>

#include <fmt/format.h>

#include "nccl_version.hpp"
#include "perfgate/core/error.hpp"

namespace perfgate::collectives {
namespace {

// The entry points newer than the oldest NCCL perfgate-collectives runs on, found in the NCCL
// library the program was linked with (null where that library lacks them).
struct OptionalEntryPoints {
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 19, 0)
  decltype(&ncclMemAlloc) mem_alloc = nullptr;
  decltype(&ncclMemFree) mem_free = nullptr;
  decltype(&ncclCommRegister) comm_register = nullptr;
  decltype(&ncclCommDeregister) comm_deregister = nullptr;
#endif
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 27, 0)
  decltype(&ncclCommWindowRegister) window_register = nullptr;
  decltype(&ncclCommWindowDeregister) window_deregister = nullptr;
#endif
};

template <class F>
void look_up(F& f, const char* name) {
  f = reinterpret_cast<F>(dlsym(RTLD_DEFAULT, name));
}

const OptionalEntryPoints& entry_points() {
  static const OptionalEntryPoints found = [] {
    OptionalEntryPoints e;
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 19, 0)
    look_up(e.mem_alloc, "ncclMemAlloc");
    look_up(e.mem_free, "ncclMemFree");
    look_up(e.comm_register, "ncclCommRegister");
    look_up(e.comm_deregister, "ncclCommDeregister");
#endif
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 27, 0)
    look_up(e.window_register, "ncclCommWindowRegister");
    look_up(e.window_deregister, "ncclCommWindowDeregister");
#endif
    return e;
  }();
  return found;
}

void check(ncclResult_t r, const char* what) {
  if (r != ncclSuccess) throw ToolError(fmt::format("{}: {}", what, ncclGetErrorString(r)));
}

// A symmetric window's size is a whole number of NCCL's required alignment.
std::size_t registered_size(Registration r, std::size_t bytes) {
#ifdef NCCL_WIN_REQUIRED_ALIGNMENT
  constexpr std::size_t align = NCCL_WIN_REQUIRED_ALIGNMENT;
  if (r == Registration::symmetric) return (bytes + align - 1) / align * align;
#else
  (void)r;
#endif
  return bytes;
}

}  // namespace

std::optional<std::string> registration_unavailable(Registration r) {
  if (r == Registration::none) return std::nullopt;
  const int needed = r == Registration::local ? NCCL_VERSION(2, 19, 0) : NCCL_VERSION(2, 27, 0);
  if (std::optional<std::string> why = nccl_too_old(needed)) return why;
  bool found = false;
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 19, 0)
  const OptionalEntryPoints& e = entry_points();
  found = e.mem_alloc && e.mem_free;
  if (r == Registration::local) found = found && e.comm_register && e.comm_deregister;
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 27, 0)
  if (r == Registration::symmetric) found = found && e.window_register && e.window_deregister;
#endif
#endif
  if (!found)
    return fmt::format("the NCCL library {} lacks the registration entry points",
                       nccl_version_text(loaded_nccl_version()));
  return std::nullopt;
}

NcclBuffer::~NcclBuffer() {
  free_memory();
}

void NcclBuffer::reserve(ncclComm_t comm, std::size_t bytes) {
  if (bytes <= capacity_) return;
  release(comm);
  const std::size_t size = registered_size(registration_, bytes);
  void* p = nullptr;
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 19, 0)
  const OptionalEntryPoints& e = entry_points();
  if (e.mem_alloc && e.mem_free) {
    check(e.mem_alloc(&p, size), "ncclMemAlloc");
    from_nccl_ = true;
  }
#endif
  if (p == nullptr) {
    const cudaError_t status = cudaMalloc(&p, size);
    if (status != cudaSuccess)
      throw ToolError(fmt::format("cudaMalloc of {} B: {}", size, cudaGetErrorString(status)));
    from_nccl_ = false;
  }
  data_ = static_cast<std::byte*>(p);
  capacity_ = size;
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 19, 0)
  if (registration_ == Registration::local)
    check(e.comm_register(comm, data_, capacity_, &handle_), "ncclCommRegister");
#endif
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 27, 0)
  if (registration_ == Registration::symmetric) {
    ncclWindow_t window = nullptr;
    check(e.window_register(comm, data_, capacity_, &window, NCCL_WIN_COLL_SYMMETRIC),
          "ncclCommWindowRegister");
    handle_ = window;
  }
#endif
}

void NcclBuffer::release(ncclComm_t comm) {
  if (handle_ != nullptr && comm != nullptr) {
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 19, 0)
    const OptionalEntryPoints& e = entry_points();
    if (registration_ == Registration::local)
      check(e.comm_deregister(comm, handle_), "ncclCommDeregister");
#endif
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 27, 0)
    if (registration_ == Registration::symmetric)
      check(e.window_deregister(comm, static_cast<ncclWindow_t>(handle_)),
            "ncclCommWindowDeregister");
#endif
  }
  handle_ = nullptr;
  free_memory();
}

void NcclBuffer::free_memory() noexcept {
  if (data_ == nullptr) return;
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 19, 0)
  if (from_nccl_) {
    entry_points().mem_free(data_);
  } else {
    cudaFree(data_);
  }
#else
  cudaFree(data_);
#endif
  data_ = nullptr;
  capacity_ = 0;
}

}  // namespace perfgate::collectives
