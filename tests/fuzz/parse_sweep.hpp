#pragma once
// The sweep's untrusted inputs, each through the code that reads it: plan files (TOML), the
// documents the workload programs write at each scale point, and srun's verbose log (which the
// workload's own output shares). Shared by the libFuzzer targets and the replay in
// reliability_tests. Contract: a plan or a point document is read or refused with InputError;
// the srun readers never throw; anything else (another exception, a crash, a sweep document
// that cannot be read back) is a bug, and the last aborts.
#include <cstdlib>
#include <string>

#include "../../scaling/src/slurm_text.hpp"
#include "perfgate/core/document.hpp"
#include "perfgate/core/error.hpp"
#include "perfgate/scaling/aggregate.hpp"
#include "perfgate/scaling/plan.hpp"
#include "perfgate/scaling/workload.hpp"

namespace perfgate::fuzz {

// A plan file as text; every accepted plan must give each of its points a command line.
inline void parse_plan_file_text(const std::string& text) {
  try {
    for (const scaling::SweepPlan& plan : scaling::parse_plan_text(text, "<fuzz>"))
      for (const scaling::ScalePoint& point : plan.points) {
        try {
          scaling::workload_argv(plan, point, {}, "point.json");
        } catch (const InputError&) {  // a strong-scaling batch that does not divide
        }
      }
  } catch (const InputError&) {
  }
}

// One plan of each workload kind, over two scale points.
inline const std::vector<scaling::SweepPlan>& fuzz_plans() {
  static const std::vector<scaling::SweepPlan> plans = [] {
    std::string text;
    for (const char* workload : {"all_reduce", "overlap", "buckets", "step_proxy"})
      text += std::string("[[sweep]]\nname = \"") + workload + "\"\nnodes = [1, 2]\nworkload = \"" +
              workload + "\"\n";
    return scaling::parse_plan_text(text, "<fuzz plans>");
  }();
  return plans;
}

// One point's document, read as each workload would read it; a readable point must aggregate
// into a sweep run that survives to_document -> from_document.
inline void read_point_document_text(const std::string& text) {
  Run doc;
  try {
    doc = from_document(parse_json_text(text, "<fuzz>"), "<fuzz>");
  } catch (const InputError&) {
    return;
  }
  for (const scaling::SweepPlan& plan : fuzz_plans()) {
    // What read_point makes of the document does not depend on the point: read it once, and
    // give every point the same readout.
    scaling::PointRecord read;
    read.launch.ok = true;
    try {
      read.readout = scaling::read_point(plan, doc, "<fuzz>");
    } catch (const InputError& e) {
      read.failure = e.what();
    }
    std::vector<scaling::PointRecord> records;
    for (const scaling::ScalePoint& point : plan.points) {
      records.push_back(read);
      records.back().point = point;
    }
    Run sweep;
    sweep.uuid = "fuzz";
    sweep.suite = "fuzz";
    scaling::aggregate_sweep(plan, records, {}, sweep);
    const Run again = from_document(to_document(sweep), "<sweep round trip>");
    if (again.results.size() != sweep.results.size()) std::abort();
  }
}

// srun -v output (with whatever the workload printed among it).
inline void read_srun_log_text(const std::string& text) {
  scaling::detail::step_id_from_srun_log(text);
  scaling::detail::nodelist_from_srun_log(text);
  scaling::detail::rank_hosts_from_srun_log(text, 64);
  scaling::detail::choose_mpi_plugin(text);
  scaling::detail::scontrol_field(text, "NodeList");
}

}  // namespace perfgate::fuzz
