#pragma once
// The result document under construction on rank 0: results are added as cases finish, so that
// the watchdog can write a partial document at any moment (thread-safe).
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "options.hpp"
#include "perfgate/collectives/result_document.hpp"
#include "perfgate/collectives/split_rule.hpp"
#include "perfgate/core/model.hpp"

namespace perfgate::collectives {

struct RankPlace {
  int rank = 0, node = 0, local_rank = 0, device = 0, pid = 0;
  std::string host;
};

class RunDocument {
 public:
  // `places`: every rank's place (rank order); `gpus`: whether the backend runs on GPUs;
  // `writer`: this rank writes the document (only the writer collects the fingerprint).
  RunDocument(const Options& options, const std::string& backend, std::vector<RankPlace> places,
              bool gpus, bool writer, const std::map<std::string, std::string>& backend_keys);

  const Scale& scale() const { return scale_; }
  const std::vector<RankPlace>& places() const { return places_; }

  // NCCL_TESTS_SPLIT's groups (more than one): metadata.collectives.split, each rank's group
  // in metadata.collectives.ranks, and a "groups" parameter on every result from now on, so that
  // a split run's series never meet an unsplit run's.
  void set_split(const SplitRule& rule, int groups, int group_ranks);
  void add(std::vector<Result> results);
  // Appends to a list of metadata.collectives: "stragglers", or "skipped" (cases not run).
  void add_to_list(const std::string& list, nlohmann::json entry);
  void set_metadata(const std::string& key, nlohmann::json value);
  // The case being measured now (recorded as timeout if the watchdog fires); nullopt: none.
  void set_current(std::optional<CaseMeasurement> current);
  std::string describe_current() const;

  void write(const std::string& path);
  // Adds the current case as a timeout result and writes the document with status partial.
  void write_timeout(const std::string& path, int rank, const std::string& host, double timeout_s);

 private:
  mutable std::mutex mutex_;
  Run run_;
  Scale scale_;
  std::vector<RankPlace> places_;
  nlohmann::json metadata_;
  std::optional<CaseMeasurement> current_;
  int groups_ = 1;
  void mark_groups(Result& r) const;
};

// Gathers every rank's place (node index from distinct host names, in rank order).
std::vector<RankPlace> collect_places(const class Communicator& comm, int device);

}  // namespace perfgate::collectives
