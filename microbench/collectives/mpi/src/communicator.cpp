#include "perfgate/collectives/communicator.hpp"

#include <unistd.h>

#include <algorithm>

#include "perfgate/collectives/launch_env.hpp"

namespace perfgate::collectives {

Communicator::Communicator() {
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  MPI_Get_processor_name(name, &length);
  host_.assign(name, static_cast<std::size_t>(length));
  const LaunchPlace place = read_launch_place(process_environment());
  launcher_node_ = place.node.value_or(-1);
  if (place.local_rank) {
    local_rank_ = *place.local_rank;
  } else {
    // No launcher variables: ask MPI which ranks share this node.
    MPI_Comm node_comm = MPI_COMM_NULL;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node_comm);
    MPI_Comm_rank(node_comm, &local_rank_);
    MPI_Comm_free(&node_comm);
  }
}

Communicator::Communicator(const Communicator& parent, MPI_Comm comm, int color)
    : comm_(comm),
      local_rank_(parent.local_rank_),
      launcher_node_(parent.launcher_node_),
      color_(color),
      host_(parent.host_) {
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
}

Communicator::~Communicator() {
  if (comm_ != MPI_COMM_WORLD) MPI_Comm_free(&comm_);
}

std::unique_ptr<Communicator> Communicator::split(int color) const {
  MPI_Comm part = MPI_COMM_NULL;
  MPI_Comm_split(comm_, color, rank_, &part);
  return std::unique_ptr<Communicator>(new Communicator(*this, part, color));
}

void Communicator::barrier() const {
  MPI_Barrier(comm_);
}

std::vector<double> Communicator::gather(double value) const {
  std::vector<double> all(rank_ == 0 ? static_cast<std::size_t>(size_) : 0);
  MPI_Gather(&value, 1, MPI_DOUBLE, all.data(), 1, MPI_DOUBLE, 0, comm_);
  return all;
}

std::vector<std::string> Communicator::gather(const std::string& text) const {
  std::vector<std::string> all = all_gather(text);
  if (rank_ != 0) all.clear();
  return all;
}

std::vector<std::string> Communicator::all_gather(const std::string& text) const {
  int length = static_cast<int>(text.size());
  std::vector<int> lengths(static_cast<std::size_t>(size_));
  MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, comm_);
  std::vector<int> offsets(lengths.size());
  int total = 0;
  for (std::size_t r = 0; r < lengths.size(); ++r) {
    offsets[r] = total;
    total += lengths[r];
  }
  std::string joined(static_cast<std::size_t>(total), '\0');
  MPI_Allgatherv(text.data(), length, MPI_CHAR, joined.data(), lengths.data(), offsets.data(),
                 MPI_CHAR, comm_);
  std::vector<std::string> all;
  for (std::size_t r = 0; r < lengths.size(); ++r) {
    all.push_back(
        joined.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(lengths[r])));
  }
  return all;
}

double Communicator::max(double value) const {
  double out = 0;
  MPI_Allreduce(&value, &out, 1, MPI_DOUBLE, MPI_MAX, comm_);
  return out;
}

std::vector<std::vector<double>> Communicator::gather(const std::vector<double>& values) const {
  const auto count = static_cast<int>(values.size());
  std::vector<double> joined(rank_ == 0 ? values.size() * static_cast<std::size_t>(size_) : 0);
  MPI_Gather(values.data(), count, MPI_DOUBLE, joined.data(), count, MPI_DOUBLE, 0, comm_);
  std::vector<std::vector<double>> all;
  for (auto at = joined.begin(); at != joined.end(); at += count) all.emplace_back(at, at + count);
  return all;
}

std::size_t Communicator::sum(std::size_t value) const {
  unsigned long long in = value, out = 0;
  MPI_Allreduce(&in, &out, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm_);
  return static_cast<std::size_t>(out);
}

std::optional<RankReason> Communicator::first_reason(const std::optional<std::string>& mine) const {
  const std::size_t ranks = sum(mine ? 1 : 0);
  if (ranks == 0) return std::nullopt;
  // A rank without a reason sends an empty text; a reason itself is never empty.
  const std::vector<std::string> reasons = all_gather(mine ? mine->empty() ? "?" : *mine : "");
  const auto first =
      std::find_if(reasons.begin(), reasons.end(), [](const std::string& r) { return !r.empty(); });
  return RankReason{static_cast<int>(first - reasons.begin()), *first, ranks};
}

}  // namespace perfgate::collectives
