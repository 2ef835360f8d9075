#include "perfgate/core/visible_devices.hpp"

#include <cstdlib>

#include "perfgate/core/csv_rows.hpp"

namespace perfgate {

std::string visible_devices_from_environment() {
  const char* value = std::getenv("CUDA_VISIBLE_DEVICES");
  return value != nullptr ? value : "";
}

std::vector<std::string> visible_device_entries(const std::string& value) {
  const auto rows = csv_rows(value);
  return rows.empty() ? std::vector<std::string>{} : rows.front();
}

bool entry_names_gpu(const std::string& entry, const std::string& index, const std::string& uuid) {
  return entry == index || (entry.starts_with("GPU-") && uuid.starts_with(entry));
}

}  // namespace perfgate
