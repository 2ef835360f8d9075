#pragma once
// std::regex on untrusted text. libstdc++'s matcher recurses once per character a repetition
// takes and overflows the stack on subjects of about 100 000 characters, so text that may come
// from anyone (a log, a document field, a plan key) is only matched when it is short. Every
// line perfgate reads this way (nccl-tests logs, srun's log, timestamps) is far shorter when
// it is what it should be.
#include <cstddef>
#include <regex>
#include <string>

namespace perfgate {

inline constexpr std::size_t kLongestRegexSubject = 4096;

// std::regex_search / std::regex_match, false for a subject over kLongestRegexSubject.
inline bool bounded_regex_search(const std::string& s, std::smatch& m, const std::regex& re) {
  return s.size() <= kLongestRegexSubject && std::regex_search(s, m, re);
}
inline bool bounded_regex_match(const std::string& s, std::smatch& m, const std::regex& re) {
  return s.size() <= kLongestRegexSubject && std::regex_match(s, m, re);
}
// As for std::regex_search and std::regex_match: the match results would point into a
// temporary subject that is gone when they are read.
bool bounded_regex_search(const std::string&&, std::smatch&, const std::regex&) = delete;
bool bounded_regex_match(const std::string&&, std::smatch&, const std::regex&) = delete;

}  // namespace perfgate
