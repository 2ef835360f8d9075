#pragma once
#include <optional>
#include <string>

namespace perfgate::baselines {

// "2016-08-02 17:44:46", "2016/08/02-17:44:46", "2023-05-01T12:00:00+02:00", "...Z" → UTC
// "2016-08-02T17:44:46Z" (no offset: taken as UTC). nullopt when not a timestamp.
std::optional<std::string> normalise_timestamp(const std::string& text);

}  // namespace perfgate::baselines
