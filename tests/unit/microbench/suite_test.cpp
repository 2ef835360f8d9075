// Suites files: parsing, errors that name file:line and key, and planning a suite into cases.
#include <catch2/catch.hpp>

#include <set>

#include "perfgate/core/error.hpp"
#include "perfgate/core/suite.hpp"
#include "perfgate/microbench/plan.hpp"

using namespace perfgate;
using microbench::plan_suite;
using microbench::PlanOptions;

namespace {
const char* kGood = R"(schema = 1
[suites.quick]
description = "a test suite"
backends = ["cpu"]
seed = 7
[suites.quick.sampling]
min_samples = 9
max_time_s = 0.5
case_timeout_s = 30
[suites.quick.compare]
floor = 0.05
noise_k = 2.5
[[suites.quick.compare.tolerance]]
pattern = "softmax/*"
floor = 0.2
[[suites.quick.family]]
name = "softmax"
impls = ["fused"]
axes = { rows = [3, 5], cols = [64], dtype = ["f32"] }
[[suites.quick.family]]
name = "attention"
timing = ["cold", "graph", "hot"]
axes = { b = [1], h = [2], hkv = [1, 2, 3], sq = [8], sk = [4, 8], d = [8], causal = [true], varlen = [false] }
)";

std::string error_of(const std::string& text) {
  try {
    parse_suites(text, "s.toml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}
}  // namespace

TEST_CASE("a suites file parses into suites with sampling and compare settings") {
  const auto file = parse_suites(kGood, "s.toml");
  const auto& s = find_suite(file, "quick", "s.toml");
  CHECK(s.description == "a test suite");
  CHECK(s.seed == 7);
  CHECK(s.sampling.min_samples == 9);
  CHECK(s.sampling.max_time_s == 0.5);
  CHECK(s.case_timeout_s == 30);
  CHECK(s.compare.floor == 0.05);
  CHECK(s.compare.noise_k == 2.5);
  REQUIRE(s.compare.tolerances.size() == 1);
  CHECK(s.compare.tolerances[0].pattern == "softmax/*");
  CHECK(s.compare.tolerances[0].floor == 0.2);
  REQUIRE(s.families.size() == 2);
  CHECK(s.families[0].axes.at("rows") == std::vector<std::string>{"3", "5"});
  CHECK(s.families[1].axes.at("causal") == std::vector<std::string>{"1"});
  CHECK(s.families[0].timing == std::vector<std::string>{"hot"});  // the default
  CHECK(s.families[1].timing == std::vector<std::string>{"cold", "graph", "hot"});
  CHECK_THROWS_WITH(find_suite(file, "nope", "s.toml"),
                    Catch::Contains("no suite 'nope' (known: quick)"));
}

TEST_CASE("suites file errors name file:line and the key") {
  CHECK_THAT(error_of("[suites.a]\nbackends = [\"tpu\"]\n[[suites.a.family]]\nname=\"x\"\n"),
             Catch::Contains("s.toml:2: suites.a.backends[0]: unknown backend 'tpu'"));
  CHECK_THAT(
      error_of("[suites.a]\n[[suites.a.family]]\nname=\"x\"\ntiming = [\"hot\", \"warm\"]\n"),
      Catch::Contains("s.toml:4: suites.a.family[0].timing[1]: unknown timing mode 'warm' (hot, "
                      "cold or graph)"));
  CHECK_THAT(error_of("[suites.a]\n[[suites.a.family]]\nname=\"x\"\ntiming = []\n"),
             Catch::Contains("suites.a.family[0].timing: must not be empty"));
  CHECK_THAT(error_of("[suites.a]\n[[suites.a.family]]\nname=\"x\"\ncache = [\"cold\"]\n"),
             Catch::Contains("s.toml:4: suites.a.family[0].cache: unknown key"));
  CHECK_THAT(error_of("[suites.a]\n[suites.a.sampling]\nmin_samples = "
                      "\"many\"\n[[suites.a.family]]\nname=\"x\"\n"),
             Catch::Contains("s.toml:3: suites.a.sampling.min_samples: expected an integer"));
  CHECK_THAT(error_of("[suites.a]\nbackend = [\"cpu\"]\n"),
             Catch::Contains("s.toml:2: suites.a.backend: unknown key"));
  CHECK_THAT(error_of("[suites.a]\ndescription = \"no families\"\n"),
             Catch::Contains("suites.a.family: a suite needs at least one"));
  CHECK_THAT(error_of("[suites.a\n"), Catch::Contains("s.toml:1:"));
  CHECK_THAT(error_of("schema = 2\n[suites.a]\n"),
             Catch::Contains("s.toml:1: schema: version 2 is not supported"));
  CHECK_THAT(error_of("[suites.a]\n[[suites.a.compare.tolerance]]\npattern = "
                      "\"x\"\n[[suites.a.family]]\nname=\"x\"\n"),
             Catch::Contains("suites.a.compare.tolerance[0]: needs both pattern and floor"));
}

TEST_CASE("planning crosses axes with implementations and applies filters") {
  const auto file = parse_suites(kGood, "s.toml");
  const auto& s = find_suite(file, "quick", "s.toml");
  const auto cases = plan_suite(s, PlanOptions{{"cpu"}, std::nullopt, {}});
  std::size_t softmax = 0, attention = 0;
  for (const auto& c : cases) {
    if (c.family == "softmax") {
      ++softmax;
      CHECK(c.variant == "fused");
    }
    if (c.family == "attention") ++attention;
    CHECK(c.seed == 7);
    CHECK(c.policy.min_samples == 9);
  }
  CHECK(softmax == 2);
  // hkv 3 does not divide h 2; causal needs sq <= sk: (hkv 1, 2) × (sk 8) × (naive, blocked).
  CHECK(attention == 4);

  const auto filtered = plan_suite(s, PlanOptions{{"cpu"}, std::regex("rows:5"), {}});
  REQUIRE(filtered.size() == 1);
  CHECK(filtered[0].key().name() == "softmax/backend:cpu/cols:64/dtype:f32/impl:fused/rows:5");
  // Planning for a backend this machine lacks: backend_selection_test.cpp.
}

TEST_CASE("an exact cases filter keeps the cases named and no others") {
  auto file = parse_suites(kGood, "s.toml");
  auto s = find_suite(file, "quick", "s.toml");
  s.families[0].axes["rows"] = {"5", "50", "15"};
  const auto plan = [&](const std::vector<std::string>& names) {
    std::set<std::string> kept;
    const auto filter = std::regex(microbench::exact_cases_filter(names));
    for (const auto& c : plan_suite(s, PlanOptions{{"cpu"}, filter, {}}))
      kept.insert(c.key().name());
    return kept;
  };
  const std::string stem = "softmax/backend:cpu/cols:64/dtype:f32/impl:fused/rows:";
  // "rows:5" searched would also keep rows:50.
  CHECK(plan({stem + "5"}) == std::set<std::string>{stem + "5"});
  CHECK(plan({stem + "5", stem + "15"}) == std::set<std::string>{stem + "5", stem + "15"});
  CHECK(plan({stem + "7"}).empty());
  CHECK(plan({}).empty());
  // Metacharacters in a name are literal: "." matches a dot only, "|" splits nothing.
  const std::regex odd(microbench::exact_cases_filter({"a.b(c)|d"}));
  CHECK(std::regex_search("a.b(c)|d", odd));
  CHECK_FALSE(std::regex_search("aXb(c)|d", odd));
  CHECK_FALSE(std::regex_search("d", odd));
}

TEST_CASE("planning rejects unknown families, axes and implementations by name") {
  auto file = parse_suites(kGood, "s.toml");
  auto s = find_suite(file, "quick", "s.toml");
  s.families[0].impls = {"turbo"};
  CHECK_THROWS_WITH(plan_suite(s, PlanOptions{{"cpu"}, std::nullopt, {}}),
                    Catch::Contains("family 'softmax' has no implementation 'turbo'"));
  s.families[0].impls.clear();
  s.families[0].axes["width"] = {"3"};
  CHECK_THROWS_WITH(plan_suite(s, PlanOptions{{"cpu"}, std::nullopt, {}}),
                    Catch::Contains("has no axis 'width'"));
  s.families[0].name = "nosuch";
  CHECK_THROWS_WITH(plan_suite(s, PlanOptions{{"cpu"}, std::nullopt, {}}),
                    Catch::Contains("unknown family 'nosuch'"));
}

TEST_CASE("the shipped suites file parses and its smoke suite covers every family") {
  const auto file = load_suites_file(PERFGATE_SOURCE_DIR "/suites/suites.toml");
  for (const char* name : {"smoke", "premerge", "nightly", "cpu-nightly"})
    CHECK(file.suites.count(name) == 1);
  const auto cases =
      plan_suite(find_suite(file, "smoke", "suites.toml"), PlanOptions{{"cpu"}, std::nullopt, {}});
  std::set<std::string> families;
  for (const auto& c : cases) families.insert(c.family);
  CHECK(families.size() == 11);
  CHECK(cases.size() < 60);
  CHECK(plan_suite(find_suite(file, "cpu-nightly", "suites.toml"),
                   PlanOptions{{"cpu"}, std::nullopt, {}})
            .size() > 20);
}
