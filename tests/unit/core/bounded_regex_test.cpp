#include <catch2/catch.hpp>

#include "perfgate/core/bounded_regex.hpp"

using perfgate::bounded_regex_match;
using perfgate::bounded_regex_search;
using perfgate::kLongestRegexSubject;

TEST_CASE("a bounded regex matches short subjects and declines long ones without recursing") {
  static const std::regex word(R"(([A-Za-z_]+))");
  std::smatch m;
  const std::string name = "NCCL_ALGO", line = "x = y_z";
  CHECK(bounded_regex_match(name, m, word));
  CHECK(m[1] == "NCCL_ALGO");
  CHECK(bounded_regex_search(line, m, word));
  CHECK(m[1] == "x");
  const std::string longest(kLongestRegexSubject, 'a');
  CHECK(bounded_regex_match(longest, m, word));
  // 200 000 characters overflowed the stack inside std::regex_match itself.
  const std::string huge(200000, 'a');
  CHECK_FALSE(bounded_regex_match(huge, m, word));
  CHECK_FALSE(bounded_regex_search(huge, m, word));
}
