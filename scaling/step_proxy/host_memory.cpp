#include "host_memory.hpp"

#include <fmt/format.h>

namespace perfgate::step_proxy {

double host_model_bytes(const Shape& s) {
  // In double: the count is judged before any option is known to give a buildable model.
  const double layers = s.layers, t = double(s.batch) * s.seq, h = s.hidden;
  const double parameters = 2 * layers * 12 * h * h;  // W and dW: Wqkv, Wo, W1, W2
  // Per layer: x, qkv (3), attn, y1, h (4), y; and the attention's log-sum-exps per row and head.
  const double activations = layers * (11 * t * h + double(s.batch) * s.heads * s.seq);
  const double scratch = 11 * t * h;             // dy, dh (4), dy1, dattn, dqkv (3), dx
  const double ceiling = 5 * t * h + 4 * h * h;  // its [t, h] × [h, 4h] GEMM
  return (parameters + activations + scratch + ceiling) * sizeof(float);
}

void check_host_memory(MPI_Comm comm, const Shape& s) {
  const int node_ranks = collectives::ranks_sharing_node(comm);
  const double need = host_model_bytes(s);
  const std::optional<std::size_t> available = collectives::available_memory_bytes();
  const bool short_of_memory =
      available && need * node_ranks > collectives::kUsableMemoryFraction * double(*available);
  int mine = short_of_memory ? 1 : 0, short_ranks = 0, size = 1;
  MPI_Allreduce(&mine, &short_ranks, 1, MPI_INT, MPI_SUM, comm);
  MPI_Comm_size(comm, &size);
  if (short_ranks == 0) return;
  throw ModelTooLarge(fmt::format(
      "--layers {} --hidden {} --batch {} --seq {}: the model needs about {} per rank ({} ranks "
      "on this node: {}), more than 90 % of the memory available on the nodes of {} of {} ranks "
      "(this node: {}); lower --batch, --seq, --hidden or --layers",
      s.layers, s.hidden, s.batch, s.seq, gib(need), node_ranks, gib(need * node_ranks),
      short_ranks, size, available ? gib(double(*available)) : std::string("unknown")));
}

}  // namespace perfgate::step_proxy
