#include <algorithm>

#include "perfgate/core/error.hpp"
#include "perfgate/preflight/doctor.hpp"

namespace perfgate::preflight {

std::string_view to_string(Level level) {
  switch (level) {
    case Level::info:
      return "info";
    case Level::warning:
      return "warning";
    case Level::error:
      return "error";
  }
  return "error";
}

namespace {
Level level_from_string(const std::string& s) {
  if (s == "info") return Level::info;
  if (s == "warning") return Level::warning;
  if (s == "error") return Level::error;
  throw InputError("doctor findings: unknown level '" + s + "'");
}
}  // namespace

Level worst_level(const std::vector<Finding>& findings) {
  Level worst = Level::info;
  for (const auto& f : findings) worst = std::max(worst, f.level);
  return worst;
}

nlohmann::json to_json(const std::vector<Finding>& findings) {
  auto out = nlohmann::json::array();
  for (const auto& f : findings)
    out.push_back({{"check", f.check}, {"level", to_string(f.level)}, {"message", f.message}});
  return out;
}

std::vector<Finding> findings_from_json(const nlohmann::json& doc) {
  if (!doc.is_array()) throw InputError("doctor findings: expected an array");
  std::vector<Finding> out;
  for (std::size_t i = 0; i < doc.size(); ++i) {
    const auto& item = doc[i];
    const auto field = [&](const char* name) {
      if (!item.is_object() || !item.contains(name) || !item[name].is_string())
        throw InputError("doctor findings[" + std::to_string(i) + "]." + name +
                         ": expected a string");
      return item[name].get<std::string>();
    };
    out.push_back({field("check"), level_from_string(field("level")), field("message")});
  }
  return out;
}

void record_doctor_findings(Run& run, const DoctorOptions& options) {
  if (!run.metadata.is_object()) run.metadata = nlohmann::json::object();
  run.metadata["doctor"] = to_json(run_doctor(options));
}

}  // namespace perfgate::preflight
