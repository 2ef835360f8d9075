#pragma once
// The NCCL backend's operation buffers, allocated as nccl-tests allocates them: through
// ncclMemAlloc where the library has it (cuMem memory, which NVLS and graph registration need;
// plain cudaMalloc otherwise) and, with nccl-tests' -R, registered with the communicator.
// NCCL's optional entry points are looked up at run time, so that the program still loads
// against a library older than the one it was built with.
#include <nccl.h>

#include <cstddef>
#include <optional>
#include <string>

namespace perfgate::collectives {

// nccl-tests' -R: 0 none; 1 ncclCommRegister (local registration, NCCL 2.19+); 2 symmetric
// windows, ncclCommWindowRegister with NCCL_WIN_COLL_SYMMETRIC (NCCL 2.27+).
enum class Registration { none = 0, local = 1, symmetric = 2 };

// Why the loaded NCCL library cannot register buffers as `r` asks ("needs NCCL 2.27 or newer
// (this library is 2.26.2)"; nullopt: it can).
std::optional<std::string> registration_unavailable(Registration r);

class NcclBuffer {
 public:
  explicit NcclBuffer(Registration r) : registration_(r) {}
  ~NcclBuffer();  // frees without deregistering: release(comm) first while the communicator lives
  NcclBuffer(const NcclBuffer&) = delete;
  NcclBuffer& operator=(const NcclBuffer&) = delete;

  // At least `bytes`, kept while big enough. Registering a symmetric window is collective:
  // every rank must reserve the same sizes in the same order.
  void reserve(ncclComm_t comm, std::size_t bytes);
  // Deregisters (collective for windows) and frees; `comm` null: the communicator was aborted,
  // so only the memory is freed.
  void release(ncclComm_t comm);

  std::byte* data() const { return data_; }
  std::size_t capacity() const { return capacity_; }

 private:
  void free_memory() noexcept;

  Registration registration_;
  std::byte* data_ = nullptr;
  std::size_t capacity_ = 0;
  bool from_nccl_ = false;  // ncclMemAlloc's (else cudaMalloc's)
  void* handle_ = nullptr;  // ncclCommRegister's handle or the window
};

}  // namespace perfgate::collectives
