// JUnit output: golden file, and the structure the common JUnit schema (Jenkins junit-10.xsd,
// Ant's junit.xsd) requires, checked element by element with an XML parser.
#include <set>
#include <string>

#include <catch2/catch.hpp>
#include <pugixml.hpp>

#include "golden.hpp"
#include "perfgate/report/report.hpp"
#include "sample_comparison.hpp"

using namespace perfgate;
using namespace perfgate::report;
using namespace perfgate::report::testing;

namespace {

pugi::xml_document parse(const std::string& xml) {
  pugi::xml_document doc;
  const auto result = doc.load_string(xml.c_str());
  INFO(result.description());
  REQUIRE(result);
  return doc;
}

std::size_t attr_count(pugi::xml_node node, const char* name) {
  REQUIRE(node.attribute(name));
  return static_cast<std::size_t>(std::stoul(node.attribute(name).value()));
}

}  // namespace

TEST_CASE("junit matches the golden file") {
  check_golden("junit.xml", render(Format::junit, sample_input()));
}

TEST_CASE("junit has the structure the JUnit schema requires") {
  const auto doc = parse(render(Format::junit, sample_input()));
  const auto suites = doc.child("testsuites");
  REQUIRE(suites);
  const auto suite = suites.child("testsuite");
  REQUIRE(suite);
  REQUIRE(suite.attribute("name"));
  const std::set<std::string> suite_children{"properties", "testcase", "system-out", "system-err"};
  const std::set<std::string> case_children{"skipped", "error", "failure", "system-out",
                                            "system-err"};
  std::size_t tests = 0, failures = 0, skipped = 0;
  for (auto child : suite.children()) {
    INFO(child.name());
    CHECK(suite_children.count(child.name()) == 1);
    if (std::string(child.name()) != "testcase") continue;
    ++tests;
    CHECK(!std::string(child.attribute("name").value()).empty());
    CHECK(!std::string(child.attribute("classname").value()).empty());
    CHECK(child.attribute("time"));
    for (auto part : child.children()) CHECK(case_children.count(part.name()) == 1);
    if (auto f = child.child("failure")) {
      ++failures;
      CHECK(f.attribute("message"));
      CHECK(f.attribute("type"));
    }
    if (child.child("skipped")) ++skipped;
  }
  CHECK(attr_count(suite, "tests") == tests);
  CHECK(attr_count(suite, "failures") == failures);
  CHECK(attr_count(suite, "skipped") == skipped);
  CHECK(attr_count(suite, "errors") == 0);
  CHECK(attr_count(suites, "tests") == tests);
  CHECK(tests == 10);
  CHECK(failures == 3);  // two REGRESSION, one FAILED
  CHECK(skipped == 3);   // INCONCLUSIVE, ACKNOWLEDGED, MISSING
}

TEST_CASE("junit puts the numbers in the failure message and keeps hostile names as text") {
  const auto doc = parse(render(Format::junit, sample_input()));
  const auto suite = doc.child("testsuites").child("testsuite");
  const auto gemm =
      suite.find_child_by_attribute("testcase", "name", "gemm/k:4096/m:4096/n:4096@time");
  REQUIRE(gemm);
  const std::string message = gemm.child("failure").attribute("message").value();
  CHECK(message.find("REGRESSION: +12.3% [+10.1%, +14.5%]") == 0);
  CHECK(message.find("tolerance ±2.0%") != std::string::npos);
  const auto hostile = suite.find_child_by_attribute("testcase", "name", kHostileName.c_str());
  REQUIRE(hostile);
  CHECK(std::string(hostile.child("skipped").attribute("message").value())
            .find("needs 4 repetitions") != std::string::npos);
  CHECK(std::string(hostile.attribute("classname").value()) == "perfgate.evil");
}
