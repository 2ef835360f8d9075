// JUnit XML (the common Jenkins/Ant schema): one testcase per series; REGRESSION and FAILED are
// failures, INCONCLUSIVE, ACKNOWLEDGED, MISSING and NOT_COMPARABLE are skipped, the rest pass.
// Written through pugixml so that names from code under review are always escaped.
#include <sstream>

#include <fmt/format.h>
#include <pugixml.hpp>

#include "renderers.hpp"
#include "verdict_text.hpp"

namespace perfgate::report::detail {

namespace {

enum class Outcome { pass, failure, skipped };

Outcome outcome_of(VerdictKind kind) {
  switch (kind) {
    case VerdictKind::regression:
    case VerdictKind::failed:
      return Outcome::failure;
    case VerdictKind::inconclusive:
    case VerdictKind::acknowledged:
    case VerdictKind::missing:
    case VerdictKind::not_comparable:
      return Outcome::skipped;
    default:
      return Outcome::pass;
  }
}

// XML 1.0 cannot carry most control characters even escaped; replace them.
std::string xml_safe(const std::string& text) {
  std::string out = text;
  for (char& c : out) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 && c != '\t' && c != '\n' && c != '\r') c = '?';
  }
  return out;
}

// "gemm/k:1/m:2@time" → classname "perfgate.gemm", so CI tools group series by family.
std::string class_name(const std::string& series_id) {
  const auto cut = series_id.find_first_of("/@");
  return "perfgate." + series_id.substr(0, cut);
}

void add_property(pugi::xml_node props, const std::string& name, const std::string& value) {
  auto p = props.append_child("property");
  p.append_attribute("name") = name.c_str();
  p.append_attribute("value") = xml_safe(value).c_str();
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ",") + s;
  return out;
}

}  // namespace

std::string render_junit(const ReportInput& in) {
  const Comparison& c = in.comparison;
  std::size_t failures = 0, skipped = 0;
  for (const auto& v : c.verdicts) {
    const Outcome o = outcome_of(v.kind);
    failures += o == Outcome::failure;
    skipped += o == Outcome::skipped;
  }
  const std::string tests = std::to_string(c.verdicts.size());

  pugi::xml_document doc;
  auto decl = doc.append_child(pugi::node_declaration);
  decl.append_attribute("version") = "1.0";
  decl.append_attribute("encoding") = "UTF-8";

  auto suites = doc.append_child("testsuites");
  suites.append_attribute("name") = "perfgate";
  suites.append_attribute("tests") = tests.c_str();
  suites.append_attribute("failures") = std::to_string(failures).c_str();
  suites.append_attribute("errors") = "0";
  suites.append_attribute("skipped") = std::to_string(skipped).c_str();
  suites.append_attribute("time") = "0";

  auto suite = suites.append_child("testsuite");
  suite.append_attribute("name") = xml_safe(in.title).c_str();
  suite.append_attribute("tests") = tests.c_str();
  suite.append_attribute("failures") = std::to_string(failures).c_str();
  suite.append_attribute("errors") = "0";
  suite.append_attribute("skipped") = std::to_string(skipped).c_str();
  suite.append_attribute("time") = "0";

  auto props = suite.append_child("properties");
  add_property(props, "candidate_run", c.candidate_run);
  add_property(props, "baseline_runs", join(c.baseline_runs));
  add_property(props, "summary", summary_line(c));
  if (!c.differing_keys.empty()) add_property(props, "differing_keys", join(c.differing_keys));

  for (const VerdictRecord* v : worst_first(c.verdicts)) {
    auto tc = suite.append_child("testcase");
    tc.append_attribute("name") = xml_safe(v->series_id).c_str();
    tc.append_attribute("classname") = xml_safe(class_name(v->series_id)).c_str();
    tc.append_attribute("time") = "0";
    const std::string message =
        xml_safe(fmt::format("{}: {}", to_string(v->kind), evidence_sentence(*v)));
    switch (outcome_of(v->kind)) {
      case Outcome::failure: {
        auto f = tc.append_child("failure");
        f.append_attribute("message") = message.c_str();
        f.append_attribute("type") = std::string(to_string(v->kind)).c_str();
        f.append_child(pugi::node_pcdata)
            .set_value(xml_safe(fmt::format("series: {}\nbaseline runs: {}\ncandidate run: {}\n{}",
                                            v->series_id, join(v->baseline_runs), v->candidate_run,
                                            message))
                           .c_str());
        break;
      }
      case Outcome::skipped:
        tc.append_child("skipped").append_attribute("message") = message.c_str();
        break;
      case Outcome::pass:
        tc.append_child("system-out").append_child(pugi::node_pcdata).set_value(message.c_str());
        break;
    }
  }
  std::ostringstream out;
  doc.save(out, "  ", pugi::format_default, pugi::encoding_utf8);
  return out.str();
}

}  // namespace perfgate::report::detail
