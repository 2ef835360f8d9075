#include <map>

#include <catch2/catch.hpp>

#include "perfgate/collectives/launch_env.hpp"
#include "perfgate/collectives/split_rule.hpp"
#include "perfgate/core/error.hpp"

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

TEST_CASE("NCCL_TESTS_SPLIT: nccl-tests' operations, words or signs, any case, on the world rank") {
  CHECK_FALSE(read_split_rule(fake({})).has_value());
  CHECK_FALSE(read_split_rule(fake({{"NCCL_TESTS_SPLIT", " "}})).has_value());
  const SplitRule mod = *read_split_rule(fake({{"NCCL_TESTS_SPLIT", "MOD 8"}}));
  CHECK(mod.setting == "NCCL_TESTS_SPLIT=MOD 8");
  CHECK(mod.color(13) == 5);
  CHECK(read_split_rule(fake({{"NCCL_TESTS_SPLIT", "div 4"}}))->color(13) == 3);
  CHECK(read_split_rule(fake({{"NCCL_TESTS_SPLIT", "%3"}}))->color(13) == 1);
  CHECK(read_split_rule(fake({{"NCCL_TESTS_SPLIT", "AND 0x7"}}))->color(13) == 5);
  CHECK(read_split_rule(fake({{"NCCL_TESTS_SPLIT", "& 0b110"}}))->color(13) == 4);
  CHECK(read_split_rule(fake({{"NCCL_TESTS_SPLIT", "OR 1"}}))->color(12) == 13);
  CHECK(read_split_rule(fake({{"NCCL_TESTS_SPLIT", "/ 010"}}))->color(17) == 2);  // octal, as C
}

TEST_CASE("NCCL_TESTS_SPLIT_MASK is hexadecimal and wins over NCCL_TESTS_SPLIT") {
  const SplitRule mask =
      *read_split_rule(fake({{"NCCL_TESTS_SPLIT_MASK", "10"}, {"NCCL_TESTS_SPLIT", "MOD 2"}}));
  CHECK(mask.setting == "NCCL_TESTS_SPLIT_MASK=10");
  CHECK(mask.color(0x13) == 0x10);
  CHECK(read_split_rule(fake({{"NCCL_TESTS_SPLIT_MASK", "0x7"}}))->color(13) == 5);
}

TEST_CASE("a split nccl-tests would misread is refused, naming the variable") {
  const auto message = [](const std::string& variable, const std::string& value) {
    try {
      read_split_rule(fake({{variable, value}}));
    } catch (const perfgate::InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK(message("NCCL_TESTS_SPLIT", "XOR 1") ==
        "NCCL_TESTS_SPLIT=XOR 1: not an operation and a number (AND, OR, MOD or DIV, or &, |, % "
        "or /, then the number, as 'MOD 8')");
  CHECK(message("NCCL_TESTS_SPLIT", "MOD 8x") ==
        "NCCL_TESTS_SPLIT=MOD 8x: '8x' is not a whole number from 0 to 2147483647 (decimal, 0x "
        "hexadecimal, 0b binary)");
  CHECK(message("NCCL_TESTS_SPLIT", "MOD -2").find("'-2' is not a whole number") !=
        std::string::npos);
  CHECK(message("NCCL_TESTS_SPLIT", "DIV 0") == "NCCL_TESTS_SPLIT=DIV 0: DIV by 0 makes no groups");
  CHECK(message("NCCL_TESTS_SPLIT", "MOD 4294967296").find("not a whole number") !=
        std::string::npos);
  CHECK(message("NCCL_TESTS_SPLIT_MASK", "0xg") ==
        "NCCL_TESTS_SPLIT_MASK=0xg: not a rank mask (a hexadecimal number from 0 to 0x7fffffff)");
}

TEST_CASE("groups: counted per colour, refused when their sizes differ") {
  const SplitRule mod2 = *read_split_rule(fake({{"NCCL_TESTS_SPLIT", "MOD 2"}}));
  CHECK(group_sizes(mod2, 4) == std::map<int, int>{{0, 2}, {1, 2}});
  CHECK(equal_group_size(mod2, 4) == 2);
  CHECK(equal_group_size(*read_split_rule(fake({{"NCCL_TESTS_SPLIT_MASK", "0"}})), 4) == 4);
  const SplitRule mod3 = *read_split_rule(fake({{"NCCL_TESTS_SPLIT", "MOD 3"}}));
  CHECK_THROWS_WITH(equal_group_size(mod3, 4),
                    "NCCL_TESTS_SPLIT=MOD 3: splits the 4 ranks into groups of unequal size: 2 "
                    "(group 0), 1 (group 1), 1 (group 2) ranks; a table's bus bandwidth has one "
                    "group size");
}
