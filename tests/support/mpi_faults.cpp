// A PMPI interposer for tests, loaded with LD_PRELOAD: makes one collective deliver a wrong
// result, as a broken library, transport or device would, so that a test can watch
// perfgate-collectives' data check catch it in real processes. MPI_FAULT names the fault:
//   alltoall_next_block  out-of-place MPI_Alltoall sends each peer the block meant for the next
//                        peer (a displacement off by one block: the values are all right, only
//                        their place is wrong)
//   allreduce_sign       MPI_Allreduce of more than one element flips the sign bit of element
//                        count / 2 of rank 0's result (the program's own bookkeeping reduces
//                        single values, which stay right)
//   allreduce_halve_e5m2 MPI_Allreduce of more than one one-byte element halves element
//                        count / 2 of rank 0's result read as fp8 e5m2 (its exponent less one:
//                        the code less 4), a sum whose average is then half the right one
// Any other value, or none, passes every call through unchanged.
#include <mpi.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

namespace {

bool fault_is(std::string_view name) {
  const char* chosen = std::getenv("MPI_FAULT");
  return chosen != nullptr && name == chosen;
}

std::size_t type_bytes(MPI_Datatype t) {
  int size = 0;
  PMPI_Type_size(t, &size);
  return static_cast<std::size_t>(size);
}

}  // namespace

extern "C" {

int MPI_Alltoall(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt,
                 MPI_Comm c) {
  if (!fault_is("alltoall_next_block") || s == MPI_IN_PLACE)
    return PMPI_Alltoall(s, sn, st, r, rn, rt, c);
  int ranks = 0;
  PMPI_Comm_size(c, &ranks);
  const std::size_t block = static_cast<std::size_t>(sn) * type_bytes(st);
  const auto* in = static_cast<const std::byte*>(s);
  std::vector<std::byte> shifted(block * static_cast<std::size_t>(ranks));
  for (int peer = 0; peer < ranks; ++peer) {
    const auto meant_for_next = static_cast<std::size_t>((peer + 1) % ranks);
    std::memcpy(shifted.data() + static_cast<std::size_t>(peer) * block,
                in + meant_for_next * block, block);
  }
  return PMPI_Alltoall(shifted.data(), sn, st, r, rn, rt, c);
}

int MPI_Allreduce(const void* s, void* r, int n, MPI_Datatype t, MPI_Op o, MPI_Comm c) {
  const int status = PMPI_Allreduce(s, r, n, t, o, c);
  const bool flip_sign = fault_is("allreduce_sign");
  const bool halve = fault_is("allreduce_halve_e5m2") && type_bytes(t) == 1;
  if (!(flip_sign || halve) || n <= 1) return status;
  int rank = 0;
  PMPI_Comm_rank(c, &rank);
  if (rank != 0) return status;
  const std::size_t size = type_bytes(t);
  // The element's most significant byte, little-endian: its sign bit.
  std::byte& top = static_cast<std::byte*>(r)[static_cast<std::size_t>(n / 2) * size + size - 1];
  if (flip_sign) top ^= std::byte{0x80};
  if (halve) top = static_cast<std::byte>(static_cast<unsigned>(top) - 4);
  return status;
}

}  // extern "C"
