#pragma once
// The few MPI calls the drivers need, on MPI_COMM_WORLD or a split of it (MPI is initialised by
// main).
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <mpi.h>

namespace perfgate::collectives {

// Why some ranks cannot go on with a step that every rank must take or skip together.
struct RankReason {
  int rank = 0;  // the lowest rank that has a reason
  std::string reason;
  std::size_t ranks = 0;  // how many have one
};

class Communicator {
 public:
  Communicator();  // MPI_COMM_WORLD
  ~Communicator();
  Communicator(const Communicator&) = delete;
  Communicator& operator=(const Communicator&) = delete;
  // Collective: the ranks whose `color` is this rank's (nccl-tests' NCCL_TESTS_SPLIT), numbered
  // in this communicator's order on an MPI communicator of their own. Host, local rank and node
  // stay this process's: a GPU follows the rank's place on its node, not in its group.
  std::unique_ptr<Communicator> split(int color) const;
  int rank() const { return rank_; }
  int size() const { return size_; }
  int color() const { return color_; }  // 0 unless split
  MPI_Comm comm() const { return comm_; }
  const std::string& host() const { return host_; }
  int local_rank() const { return local_rank_; }
  int launcher_node() const { return launcher_node_; }  // SLURM_NODEID, or -1

  void barrier() const;
  // Rank 0 receives one value per rank (in rank order); other ranks get an empty vector.
  std::vector<double> gather(double value) const;
  std::vector<std::string> gather(const std::string& text) const;
  std::vector<std::string> all_gather(const std::string& text) const;
  double max(double value) const;
  // Rank 0 receives every rank's values, in rank order (others: empty); every rank passes as
  // many.
  std::vector<std::vector<double>> gather(const std::vector<double>& values) const;
  std::size_t sum(std::size_t value) const;
  // Collective: nullopt on every rank when no rank has a reason, else the same RankReason on
  // every rank (so that all skip or refuse together and none is left in a collective).
  std::optional<RankReason> first_reason(const std::optional<std::string>& mine) const;

 private:
  Communicator(const Communicator& parent, MPI_Comm comm, int color);
  MPI_Comm comm_ = MPI_COMM_WORLD;
  int rank_ = 0, size_ = 1, local_rank_ = 0, launcher_node_ = -1, color_ = 0;
  std::string host_;
};

}  // namespace perfgate::collectives
