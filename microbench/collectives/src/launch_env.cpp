#include "perfgate/collectives/launch_env.hpp"

#include <charconv>
#include <cstdlib>
#include <utility>

#include <fmt/format.h>

#include "perfgate/core/error.hpp"

namespace perfgate::collectives {
namespace {

std::optional<int> integer(const EnvLookup& env, const std::string& name) {
  const std::optional<std::string> text = env(name);
  if (!text || text->empty()) return std::nullopt;
  int value = 0;
  auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (ec != std::errc() || end != text->data() + text->size() || value < 0) return std::nullopt;
  return value;
}

}  // namespace

EnvLookup process_environment() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    if (!value) return std::nullopt;
    return std::string(value);
  };
}

LaunchPlace read_launch_place(const EnvLookup& env) {
  LaunchPlace place;
  const std::pair<const char*, const char*> launchers[] = {
      {"OMPI_COMM_WORLD_LOCAL_RANK", "openmpi"},
      {"SLURM_LOCALID", "slurm"},
      {"PMIX_LOCAL_RANK", "pmix"}};
  for (const auto& [variable, launcher] : launchers) {
    if (auto v = integer(env, variable)) {
      place.local_rank = v;
      place.launcher = launcher;
      break;
    }
  }
  place.node = integer(env, "SLURM_NODEID");
  return place;
}

int rank_device(const EnvLookup& env, int local_rank, int devices) {
  constexpr const char* variable = "NCCL_TESTS_DEVICE";
  const std::optional<std::string> text = env(variable);
  if (!text) return local_rank % devices;
  const std::optional<int> first = integer(env, variable);
  if (!first)
    throw InputError(
        fmt::format("{}={}: not a CUDA device index (a whole number from 0)", variable, *text));
  if (*first >= devices)
    throw InputError(fmt::format("{}={}: this rank sees {} CUDA device{} (0..{})", variable, *text,
                                 devices, devices == 1 ? "" : "s", devices - 1));
  return *first;
}

}  // namespace perfgate::collectives
