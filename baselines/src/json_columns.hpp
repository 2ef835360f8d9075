#pragma once
// JSON text stored in TEXT columns (labels, metadata, params, extra).
#include <map>
#include <string>

#include <nlohmann/json.hpp>

namespace perfgate::baselines {

inline std::string to_json_text(const std::map<std::string, std::string>& m) {
  return nlohmann::json(m).dump();
}
inline std::string to_json_text(const nlohmann::json& j) {
  return j.dump();
}

inline nlohmann::json json_column(const std::string& text) {
  return text.empty() ? nlohmann::json::object() : nlohmann::json::parse(text);
}
inline std::map<std::string, std::string> string_map_column(const std::string& text) {
  return json_column(text).get<std::map<std::string, std::string>>();
}

}  // namespace perfgate::baselines
