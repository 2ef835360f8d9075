#pragma once
// Run identity and timestamps.
#include <string>

namespace perfgate {

std::string new_uuid();         // random RFC 4122 version-4 uuid
std::string utc_now_iso8601();  // e.g. "2026-11-29T22:31:05Z"
std::string fnv1a64_hex(const std::string& bytes);

}  // namespace perfgate
