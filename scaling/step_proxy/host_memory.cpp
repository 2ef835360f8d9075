#include "host_memory.hpp"

#include <fstream>
#include <sstream>

#include <fmt/format.h>

namespace perfgate::step_proxy {

std::string gib(double bytes) {
  return fmt::format("{:.1f} GiB", bytes / double(1u << 30));
}

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

std::optional<std::size_t> available_memory_bytes(const std::filesystem::path& meminfo) {
  std::ifstream in(meminfo);
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string key, unit;
    std::size_t kib = 0;
    if (fields >> key >> kib >> unit && key == "MemAvailable:" && unit == "kB") return kib * 1024;
  }
  return std::nullopt;
}

void check_host_memory(MPI_Comm comm, const Shape& s) {
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int node_ranks = 1;
  MPI_Comm_size(node, &node_ranks);
  MPI_Comm_free(&node);
  const double need = host_model_bytes(s);
  const std::optional<std::size_t> available = available_memory_bytes();
  const bool short_of_memory = available && need * node_ranks > 0.9 * double(*available);
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
