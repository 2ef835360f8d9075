#include "run_document.hpp"

#include <unistd.h>

#include <algorithm>
#include <map>
#include <sstream>

#include <fmt/format.h>
#include <mpi.h>

#include "perfgate/collectives/communicator.hpp"
#include "perfgate/core/document.hpp"
#include "perfgate/core/fingerprint.hpp"
#include "perfgate/core/identity.hpp"

namespace perfgate::collectives {
namespace {

std::string mpi_library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(text, &length);
  std::string version(text, static_cast<std::size_t>(length));
  const auto newline = version.find_first_of("\n,");
  return version.substr(0, newline);
}

}  // namespace

std::vector<RankPlace> collect_places(const Communicator& comm, int device) {
  const std::string mine = fmt::format("{} {} {} {} {}", comm.local_rank(), device, ::getpid(),
                                       comm.launcher_node(), comm.host());
  std::vector<RankPlace> places;
  std::vector<std::string> hosts_seen;
  int rank = 0;
  for (const std::string& line : comm.all_gather(mine)) {
    RankPlace p;
    p.rank = rank++;
    std::istringstream fields(line);
    int launcher_node = -1;
    fields >> p.local_rank >> p.device >> p.pid >> launcher_node >> std::ws;
    std::getline(fields, p.host);
    // The launcher's node index where it gives one (srun), else the order of first appearance.
    auto it = std::find(hosts_seen.begin(), hosts_seen.end(), p.host);
    p.node = launcher_node >= 0 ? launcher_node : static_cast<int>(it - hosts_seen.begin());
    if (it == hosts_seen.end()) hosts_seen.push_back(p.host);
    places.push_back(p);
  }
  return places;
}

RunDocument::RunDocument(const Options& options, const std::string& backend,
                         std::vector<RankPlace> places, bool gpus, bool writer,
                         const std::map<std::string, std::string>& backend_keys)
    : places_(std::move(places)) {
  std::map<int, int> ranks_per_node;
  for (const RankPlace& p : places_) ++ranks_per_node[p.node];
  int widest = 0;
  for (const auto& [node, count] : ranks_per_node) widest = std::max(widest, count);
  scale_ = {static_cast<int>(ranks_per_node.size()), gpus ? widest : 0,
            static_cast<int>(places_.size())};

  run_.uuid = new_uuid();
  run_.suite = options.suite;
  run_.started_at = utc_now_iso8601();
  run_.labels = options.labels;
  run_.labels["backend"] = backend;
  run_.labels["mode"] = mode_name(options.mode);
  if (writer) {
    run_.fingerprint = collect_fingerprint(this_build());
    merge_keys(run_.fingerprint, backend_keys, {{"mpi.library", mpi_library_version()}});
    if (const std::string launch = launch_method(options); !launch.empty())
      run_.fingerprint.comparable["collectives.launch"] = launch;
  }

  nlohmann::json ranks = nlohmann::json::array();
  for (const RankPlace& p : places_) {
    ranks.push_back({{"rank", p.rank},
                     {"host", p.host},
                     {"node", p.node},
                     {"local_rank", p.local_rank},
                     {"device", p.device},
                     {"pid", p.pid}});
  }
  metadata_ = {{"ranks", ranks},
               {"options", options_json(options)},
               {"stragglers", nlohmann::json::array()},
               {"skipped", nlohmann::json::array()},
               {"timeouts", nlohmann::json::array()}};
}

void RunDocument::set_split(const SplitRule& rule, int groups, int group_ranks) {
  std::lock_guard lock(mutex_);
  groups_ = groups;
  metadata_["split"] = {
      {"setting", rule.setting}, {"groups", groups}, {"group_ranks", group_ranks}};
  for (nlohmann::json& rank : metadata_["ranks"])
    rank["group"] = rule.color(rank["rank"].get<int>());
}

void RunDocument::mark_groups(Result& r) const {
  if (groups_ > 1) r.key.params["groups"] = std::to_string(groups_);
}

void RunDocument::add(std::vector<Result> results) {
  std::lock_guard lock(mutex_);
  for (Result& r : results) {
    mark_groups(r);
    run_.results.push_back(std::move(r));
  }
}

void RunDocument::add_to_list(const std::string& list, nlohmann::json entry) {
  std::lock_guard lock(mutex_);
  metadata_[list].push_back(std::move(entry));
}

void RunDocument::set_metadata(const std::string& key, nlohmann::json value) {
  std::lock_guard lock(mutex_);
  metadata_[key] = std::move(value);
}

void RunDocument::set_current(std::optional<CaseMeasurement> current) {
  std::lock_guard lock(mutex_);
  current_ = std::move(current);
}

std::string RunDocument::describe_current() const {
  std::lock_guard lock(mutex_);
  if (!current_) return "setup";
  return fmt::format("{} {} {} B {}", info(current_->shape.collective).name,
                     type_name(current_->shape.dtype), current_->bytes,
                     current_->in_place ? "in-place" : "out-of-place");
}

void RunDocument::write(const std::string& path) {
  std::lock_guard lock(mutex_);
  run_.ended_at = utc_now_iso8601();
  run_.metadata["collectives"] = metadata_;
  write_document_file(path, run_);
}

void RunDocument::write_timeout(const std::string& path, int rank, const std::string& host,
                                double timeout_s) {
  {
    std::lock_guard lock(mutex_);
    if (current_) {
      run_.results.push_back(timeout_result(*current_, scale_, rank, host, timeout_s));
      mark_groups(run_.results.back());
      metadata_["timeouts"].push_back({{"collective", info(current_->shape.collective).name},
                                       {"bytes", current_->bytes},
                                       {"in_place", current_->in_place},
                                       {"rank", rank},
                                       {"host", host},
                                       {"timeout_s", timeout_s}});
    }
    run_.status = RunStatus::partial;
  }
  write(path);
}

}  // namespace perfgate::collectives
