#include "nccl_tests_memory.hpp"

#include <cctype>
#include <cmath>
#include <sstream>
#include <vector>

namespace perfgate::baselines {
namespace {

constexpr const char* kDevices[] = {"GPU", "Host"};

std::string device_of(const std::string& line) {
  for (const char* device : kDevices)
    if (line.rfind(std::string("# ") + device + " memory usage", 0) == 0) return device;
  return {};
}

// nccl-tests' units are binary: KB is 1024 B.
std::optional<double> unit_bytes(const std::string& unit) {
  if (unit == "B") return 1.0;
  if (unit == "KB") return 1024.0;
  if (unit == "MB") return 1024.0 * 1024.0;
  if (unit == "GB") return 1024.0 * 1024.0 * 1024.0;
  return std::nullopt;
}

// "User-Allocated" -> "user_allocated".
std::string snake_case(const std::string& name) {
  std::string out;
  for (char c : name) {
    const auto u = static_cast<unsigned char>(c);
    out += std::isalnum(u) ? static_cast<char>(std::tolower(u)) : '_';
  }
  return out;
}

}  // namespace

bool is_memory_usage_line(const std::string& line) {
  return !device_of(line).empty();
}

std::optional<nlohmann::json> read_memory_usage(const std::string& line) {
  const std::size_t colon = line.find(':');
  if (colon == std::string::npos) return std::nullopt;
  const std::string parts = line.substr(colon + 1);
  nlohmann::json bytes = nlohmann::json::object();
  std::istringstream pieces(parts);
  for (std::string piece; std::getline(pieces, piece, '|');) {
    std::istringstream words(piece);
    std::vector<std::string> w;
    for (std::string word; words >> word;) w.push_back(word);
    if (w.size() < 3) return std::nullopt;
    const std::optional<double> unit = unit_bytes(w.back());
    const std::string& amount = w[w.size() - 2];
    std::size_t used = 0;
    double value = 0;
    try {
      value = std::stod(amount, &used);
    } catch (const std::exception&) {
      return std::nullopt;
    }
    if (!unit || used != amount.size() || !std::isfinite(value)) return std::nullopt;
    std::string name = w[0];
    for (std::size_t k = 1; k + 2 < w.size(); ++k) name += " " + w[k];
    bytes[snake_case(name)] = std::llround(value * *unit);
  }
  if (bytes.empty()) return std::nullopt;
  std::string trimmed = parts;
  trimmed.erase(0, trimmed.find_first_not_of(' '));
  trimmed.erase(trimmed.find_last_not_of(' ') + 1);
  return nlohmann::json{{"device", device_of(line)}, {"parts", trimmed}, {"bytes", bytes}};
}

}  // namespace perfgate::baselines
