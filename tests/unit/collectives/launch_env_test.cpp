#include <map>

#include <catch2/catch.hpp>

#include "perfgate/collectives/launch_env.hpp"

using namespace perfgate::collectives;

namespace {

EnvLookup fake(std::map<std::string, std::string> vars) {
  return [vars](const std::string& name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

}  // namespace

TEST_CASE("mpirun's local rank is read") {
  const LaunchPlace p = read_launch_place(fake({{"OMPI_COMM_WORLD_LOCAL_RANK", "3"}}));
  CHECK(p.local_rank == 3);
  CHECK(p.launcher == "openmpi");
  CHECK_FALSE(p.node.has_value());
}

TEST_CASE("srun's local id and node id are read") {
  const LaunchPlace p = read_launch_place(fake({{"SLURM_LOCALID", "1"}, {"SLURM_NODEID", "4"}}));
  CHECK(p.local_rank == 1);
  CHECK(p.node == 4);
  CHECK(p.launcher == "slurm");
}

TEST_CASE("garbage and absence leave the place unknown") {
  CHECK_FALSE(read_launch_place(fake({{"SLURM_LOCALID", "x1"}})).local_rank.has_value());
  CHECK_FALSE(
      read_launch_place(fake({{"OMPI_COMM_WORLD_LOCAL_RANK", "-1"}})).local_rank.has_value());
  const LaunchPlace none = read_launch_place(fake({}));
  CHECK_FALSE(none.local_rank.has_value());
  CHECK(none.launcher.empty());
  CHECK(read_launch_place(fake({{"PMIX_LOCAL_RANK", "2"}})).local_rank == 2);
}

TEST_CASE("a rank's device is its local rank's, or NCCL_TESTS_DEVICE's when set") {
  CHECK(rank_device(fake({}), 3, 8) == 3);
  CHECK(rank_device(fake({}), 9, 8) == 1);  // more ranks than devices wrap
  CHECK(rank_device(fake({{"NCCL_TESTS_DEVICE", "5"}}), 3, 8) == 5);
  CHECK(rank_device(fake({{"NCCL_TESTS_DEVICE", "0"}}), 3, 1) == 0);
  CHECK_THROWS_WITH(rank_device(fake({{"NCCL_TESTS_DEVICE", "8"}}), 0, 8),
                    "NCCL_TESTS_DEVICE=8: this rank sees 8 CUDA devices (0..7)");
  CHECK_THROWS_WITH(rank_device(fake({{"NCCL_TESTS_DEVICE", "1"}}), 0, 1),
                    "NCCL_TESTS_DEVICE=1: this rank sees 1 CUDA device (0..0)");
  for (const char* bad : {"", "gpu1", "-1", "1.5", "2 "}) {
    INFO(bad);
    CHECK_THROWS_WITH(rank_device(fake({{"NCCL_TESTS_DEVICE", bad}}), 0, 8),
                      "NCCL_TESTS_DEVICE=" + std::string(bad) +
                          ": not a CUDA device index (a whole number from 0)");
  }
}
