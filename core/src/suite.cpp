// Suites file parser (toml++). Every error names file:line and the dotted key; unknown keys
// are errors too, so a typo never silently falls back to a default.
#include "perfgate/core/suite.hpp"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>

#include "perfgate/core/error.hpp"

namespace perfgate {
namespace {

class Reader {
 public:
  explicit Reader(std::string source) : source_(std::move(source)) {}

  [[noreturn]] void fail(const toml::node& at, const std::string& key,
                         const std::string& what) const {
    throw InputError(fmt::format("{}:{}: {}: {}", source_, at.source().begin.line, key, what));
  }

  const toml::table& table(const toml::node& n, const std::string& key) const {
    if (!n.is_table()) fail(n, key, "expected a table");
    return *n.as_table();
  }

  void only_keys(const toml::table& t, const std::string& key,
                 const std::set<std::string>& allowed) const {
    for (const auto& [k, v] : t)
      if (!allowed.count(std::string(k.str())))
        fail(v, key.empty() ? std::string(k.str()) : key + "." + std::string(k.str()),
             "unknown key");
  }

  double number(const toml::node& n, const std::string& key, double min) const {
    double v = 0;
    if (auto i = n.value_exact<std::int64_t>())
      v = static_cast<double>(*i);
    else if (auto d = n.value_exact<double>())
      v = *d;
    else
      fail(n, key, "expected a number");
    if (!(v >= min)) fail(n, key, fmt::format("must be at least {}", min));
    return v;
  }

  std::int64_t integer(const toml::node& n, const std::string& key, std::int64_t min) const {
    const auto i = n.value_exact<std::int64_t>();
    if (!i) fail(n, key, "expected an integer");
    if (*i < min) fail(n, key, fmt::format("must be at least {}", min));
    return *i;
  }

  std::string text(const toml::node& n, const std::string& key) const {
    const auto s = n.value_exact<std::string>();
    if (!s) fail(n, key, "expected a string");
    return *s;
  }

  // An axis value: integer, string or boolean (as 1/0), kept as the parameter's text.
  std::string scalar(const toml::node& n, const std::string& key) const {
    if (auto i = n.value_exact<std::int64_t>()) return std::to_string(*i);
    if (auto b = n.value_exact<bool>()) return *b ? "1" : "0";
    if (auto s = n.value_exact<std::string>()) return *s;
    fail(n, key, "expected an integer, string or boolean");
  }

  std::vector<std::string> list(const toml::node& n, const std::string& key,
                                bool strings_only) const {
    const auto* arr = n.as_array();
    if (!arr) fail(n, key, "expected an array");
    if (arr->empty()) fail(n, key, "must not be empty");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < arr->size(); ++i) {
      const auto item_key = fmt::format("{}[{}]", key, i);
      out.push_back(strings_only ? text((*arr)[i], item_key) : scalar((*arr)[i], item_key));
    }
    return out;
  }

  // A non-empty list of strings, each one of `allowed` ("unknown backend 'tpu' (cpu or cuda)").
  std::vector<std::string> choices(const toml::node& n, const std::string& key,
                                   const std::string& what,
                                   const std::vector<std::string>& allowed) const {
    std::vector<std::string> out = list(n, key, true);
    for (std::size_t i = 0; i < out.size(); ++i)
      if (std::find(allowed.begin(), allowed.end(), out[i]) == allowed.end())
        fail(*(*n.as_array())[i].as_string(), fmt::format("{}[{}]", key, i),
             fmt::format("unknown {} '{}' ({} or {})", what, out[i],
                         fmt::join(allowed.begin(), allowed.end() - 1, ", "), allowed.back()));
    return out;
  }

 private:
  std::string source_;
};

void read_sampling(const Reader& r, const toml::table& t, const std::string& key, SuiteConfig& s) {
  r.only_keys(t, key,
              {"warmup_s", "min_sample_s", "min_samples", "min_time_s", "max_samples", "max_time_s",
               "target_rel_ci", "case_timeout_s"});
  auto& p = s.sampling;
  for (const auto& [k, v] : t) {
    const std::string name(k.str()), full = key + "." + name;
    if (name == "warmup_s")
      p.warmup_s = r.number(v, full, 0);
    else if (name == "min_sample_s")
      p.min_sample_s = r.number(v, full, 0);
    else if (name == "min_samples")
      p.min_samples = static_cast<std::size_t>(r.integer(v, full, 1));
    else if (name == "min_time_s")
      p.min_time_s = r.number(v, full, 0);
    else if (name == "max_samples")
      p.max_samples = static_cast<std::size_t>(r.integer(v, full, 1));
    else if (name == "max_time_s")
      p.max_time_s = r.number(v, full, 0);
    else if (name == "target_rel_ci")
      p.target_rel_ci = r.number(v, full, 0);
    else if (name == "case_timeout_s")
      s.case_timeout_s = r.number(v, full, 1);
  }
  if (p.max_samples < p.min_samples)
    r.fail(t, key + ".max_samples", "must be at least min_samples");
}

void read_compare(const Reader& r, const toml::table& t, const std::string& key, SuiteCompare& c) {
  r.only_keys(t, key, {"floor", "noise_k", "tolerance"});
  if (const auto* v = t.get("floor")) c.floor = r.number(*v, key + ".floor", 0);
  if (const auto* v = t.get("noise_k")) c.noise_k = r.number(*v, key + ".noise_k", 0);
  if (const auto* v = t.get("tolerance")) {
    const auto* arr = v->as_array();
    if (!arr) r.fail(*v, key + ".tolerance", "expected an array of tables ([[compare.tolerance]])");
    for (std::size_t i = 0; i < arr->size(); ++i) {
      const auto item = fmt::format("{}.tolerance[{}]", key, i);
      const auto& tt = r.table((*arr)[i], item);
      r.only_keys(tt, item, {"pattern", "floor"});
      if (!tt.get("pattern") || !tt.get("floor")) r.fail(tt, item, "needs both pattern and floor");
      c.tolerances.push_back({r.text(*tt.get("pattern"), item + ".pattern"),
                              r.number(*tt.get("floor"), item + ".floor", 0)});
    }
  }
}

SuiteFamily read_family(const Reader& r, const toml::node& n, const std::string& key) {
  const auto& t = r.table(n, key);
  r.only_keys(t, key, {"name", "axes", "impls", "timing"});
  SuiteFamily f;
  if (!t.get("name")) r.fail(t, key, "missing key 'name'");
  f.name = r.text(*t.get("name"), key + ".name");
  if (const auto* v = t.get("impls")) f.impls = r.list(*v, key + ".impls", true);
  if (const auto* v = t.get("timing"))
    f.timing = r.choices(*v, key + ".timing", "timing mode", {"hot", "cold", "graph"});
  if (const auto* v = t.get("axes"))
    for (const auto& [k, vals] : r.table(*v, key + ".axes")) {
      const std::string axis(k.str());
      f.axes[axis] = r.list(vals, key + ".axes." + axis, false);
    }
  return f;
}

SuiteConfig read_suite(const Reader& r, const std::string& name, const toml::node& n) {
  const std::string key = "suites." + name;
  const auto& t = r.table(n, key);
  r.only_keys(t, key, {"description", "backends", "seed", "sampling", "compare", "family"});
  SuiteConfig s;
  s.name = name;
  if (const auto* v = t.get("description")) s.description = r.text(*v, key + ".description");
  if (const auto* v = t.get("backends")) {
    s.backends = r.choices(*v, key + ".backends", "backend", {"cpu", "cuda"});
  }
  if (const auto* v = t.get("seed"))
    s.seed = static_cast<std::uint64_t>(r.integer(*v, key + ".seed", 0));
  if (const auto* v = t.get("sampling"))
    read_sampling(r, r.table(*v, key + ".sampling"), key + ".sampling", s);
  if (const auto* v = t.get("compare"))
    read_compare(r, r.table(*v, key + ".compare"), key + ".compare", s.compare);
  const auto* fams = t.get("family");
  if (!fams || !fams->is_array() || fams->as_array()->empty())
    r.fail(fams ? *fams : n, key + ".family",
           "a suite needs at least one [[suites." + name + ".family]]");
  for (std::size_t i = 0; i < fams->as_array()->size(); ++i)
    s.families.push_back(
        read_family(r, (*fams->as_array())[i], fmt::format("{}.family[{}]", key, i)));
  return s;
}

}  // namespace

SuitesFile parse_suites(const std::string& text, const std::string& source) {
  toml::table root;
  try {
    root = toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    throw InputError(fmt::format("{}:{}: {}", source, e.source().begin.line, e.description()));
  }
  const Reader r(source);
  r.only_keys(root, "", {"schema", "suites"});
  SuitesFile file;
  if (const auto* v = root.get("schema")) {
    file.schema = static_cast<int>(r.integer(*v, "schema", 1));
    if (file.schema != 1)
      r.fail(*v, "schema", fmt::format("version {} is not supported (1)", file.schema));
  }
  const auto* suites = root.get("suites");
  if (!suites) throw InputError(fmt::format("{}:1: suites: no [suites.<name>] table", source));
  for (const auto& [k, v] : r.table(*suites, "suites")) {
    const std::string name(k.str());
    file.suites.emplace(name, read_suite(r, name, v));
  }
  return file;
}

SuitesFile load_suites_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw InputError(fmt::format("{}: cannot read the suites file", path.string()));
  std::stringstream text;
  text << in.rdbuf();
  return parse_suites(text.str(), path.filename().string());
}

const SuiteConfig& find_suite(const SuitesFile& file, const std::string& name,
                              const std::string& source) {
  const auto it = file.suites.find(name);
  if (it != file.suites.end()) return it->second;
  std::string known;
  for (const auto& [k, v] : file.suites) known += (known.empty() ? "" : ", ") + k;
  throw InputError(fmt::format("{}: no suite '{}' (known: {})", source, name, known));
}

}  // namespace perfgate
