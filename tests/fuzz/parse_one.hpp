#pragma once
// One untrusted input through one parser, shared by the libFuzzer targets and by the unit
// test that replays every crashing or malformed input kept in tests/data/reliability/.
// Contract checked: a parser either succeeds or throws perfgate::InputError; any other
// exception, a crash or a broken round trip is a bug (the functions abort on the latter).
#include <cstdlib>
#include <string>

#include "perfgate/core/document.hpp"
#include "perfgate/core/error.hpp"
#include "perfgate/core/model.hpp"
#include "perfgate/core/series_pattern.hpp"
#include "perfgate/core/suite.hpp"

namespace perfgate::fuzz {

// A perfgate result document (or Google Benchmark JSON) as text; a parsed run must survive
// to_document → from_document.
inline void parse_document_text(const std::string& text) {
  nlohmann::json doc;
  try {
    doc = parse_json_text(text, "<fuzz>");
  } catch (const InputError&) {
    return;
  }
  if (!is_perfgate_document(doc)) return;
  Run run;
  try {
    run = from_document(doc, "<fuzz>");
  } catch (const InputError&) {
    return;
  }
  const Run again = from_document(to_document(run), "<round trip>");
  if (again.results.size() != run.results.size()) std::abort();
}

// "PATTERN\nSERIES_ID": a CLI series pattern matched against a series id, and the id parsed.
inline void parse_series_text(const std::string& text) {
  const auto nl = text.find('\n');
  const std::string pattern = text.substr(0, nl);
  const std::string id = nl == std::string::npos ? text : text.substr(nl + 1);
  try {
    SeriesPattern(pattern).matches(id);
  } catch (const InputError&) {
  }
  try {
    const SeriesKey key = SeriesKey::parse_id(id);
    if (SeriesKey::parse_id(key.id()) != key) std::abort();  // id() is parse_id's inverse
  } catch (const InputError&) {
  }
}

// A suites file (TOML) as text.
inline void parse_suites_text(const std::string& text) {
  try {
    parse_suites(text, "<fuzz>");
  } catch (const InputError&) {
  }
}

}  // namespace perfgate::fuzz
