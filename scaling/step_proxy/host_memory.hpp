#pragma once
// The CPU step proxy refuses a model its node cannot hold before allocating it: every rank of a
// node builds its own copy, and a vector that zero-fills more than the node has ends in the
// kernel's out-of-memory killer, which may pick another user's process on a shared cluster node.
#include <mpi.h>

#include "perfgate/collectives/node_memory.hpp"
#include "perfgate/core/error.hpp"
#include "transformer.hpp"

namespace perfgate::step_proxy {

// The model does not fit the memory of some rank (its node's, or its GPU's); every rank throws it
// together, so perfgate-step-proxy reports it once (rank 0), exits with the usage code and
// aborts nothing.
class ModelTooLarge : public InputError {
 public:
  using InputError::InputError;
};

// "61.7 GiB": how both backends' memory checks print a byte count.
using collectives::gib;

// Bytes one rank of the CPU backend allocates: TransformerStack's weights and gradients, every
// layer's activations, the backward scratch, and the ceiling GEMM's operands (all fp32).
double host_model_bytes(const Shape& s);

// Collective over `comm`: throws ModelTooLarge on every rank when, on some node, the ranks that
// share its memory need more than kUsableMemoryFraction (90 %) of what it has available. A node
// whose available memory cannot be read is not judged.
void check_host_memory(MPI_Comm comm, const Shape& s);

}  // namespace perfgate::step_proxy
