#include "perfgate/core/document.hpp"

#include <cmath>
#include <thread>

#include "perfgate/core/error.hpp"

namespace perfgate {

using nlohmann::json;

namespace {

json code_to_json(const CodeUnderTest& c) {
  return {{"repo", c.repo}, {"branch", c.branch}, {"commit", c.commit}, {"dirty", c.dirty}};
}

json result_to_json(const Result& r) {
  json j = {{"family", r.key.family},
            {"params", r.key.params},
            {"metric", r.key.metric},
            {"unit", r.unit},
            {"direction", to_string(r.direction)},
            {"status", to_string(r.status)},
            {"message", r.message},
            {"samples", r.samples},
            {"summary",
             {{"n", r.summary.n},
              {"median", r.summary.median},
              {"mean", r.summary.mean},
              {"min", r.summary.min},
              {"max", r.summary.max},
              {"mad", r.summary.mad}}}};
  if (r.scale)
    j["scale"] = {{"nodes", r.scale->nodes},
                  {"gpus_per_node", r.scale->gpus_per_node},
                  {"ranks", r.scale->ranks}};
  if (!r.extra.empty()) j["extra"] = r.extra;
  return j;
}

// Google Benchmark view: one "iteration" row per sample of each time series, so Google
// Benchmark's own tools (compare.py) read a perfgate document as they read their own output.
json benchmark_rows(const Run& run) {
  json rows = json::array();
  int family_index = -1;
  std::string last_family;
  int instance = 0;
  for (const auto& r : run.results) {
    const auto to_ns = time_unit_to_ns(r.unit);
    if (!to_ns || r.key.metric != "time") continue;
    if (r.key.family != last_family) {
      last_family = r.key.family;
      ++family_index;
      instance = 0;
    }
    const std::string name = r.key.name();
    if (r.status != ResultStatus::ok) {
      rows.push_back({{"name", name},
                      {"family_index", family_index},
                      {"per_family_instance_index", instance},
                      {"run_name", name},
                      {"run_type", "iteration"},
                      {"error_occurred", true},
                      {"error_message", std::string(to_string(r.status)) + ": " + r.message}});
    }
    for (std::size_t i = 0; r.status == ResultStatus::ok && i < r.samples.size(); ++i) {
      rows.push_back({{"name", name},
                      {"family_index", family_index},
                      {"per_family_instance_index", instance},
                      {"run_name", name},
                      {"run_type", "iteration"},
                      {"repetitions", r.samples.size()},
                      {"repetition_index", i},
                      {"threads", 1},
                      {"iterations", 1},
                      {"real_time", r.samples[i] * *to_ns},
                      {"cpu_time", r.samples[i] * *to_ns},
                      {"time_unit", "ns"}});
    }
    ++instance;
  }
  return rows;
}

// Field access that names the path on error.
class Reader {
 public:
  Reader(const json& j, std::string path, const std::string& source)
      : j_(j), path_(std::move(path)), source_(source) {}

  [[noreturn]] void fail(const std::string& field, const std::string& problem) const {
    throw InputError(source_ + ": " + path_ + (field.empty() ? "" : "." + field) + ": " + problem);
  }
  const json& node(const std::string& field, json::value_t type, bool required = true) const {
    static const json null_value;
    if (!j_.is_object()) fail("", "expected an object");
    const auto it = j_.find(field);
    if (it == j_.end() || it->is_null()) {
      if (required) fail(field, "missing");
      return null_value;
    }
    const bool number_ok = type == json::value_t::number_float && it->is_number();
    if (it->type() != type && !number_ok)
      fail(field, std::string("expected ") + type_name(type) + ", got " + it->type_name());
    return *it;
  }
  std::string str(const std::string& field, bool required = true, std::string def = {}) const {
    const auto& n = node(field, json::value_t::string, required);
    return n.is_null() ? def : n.get<std::string>();
  }
  bool boolean(const std::string& field) const {
    const auto& n = node(field, json::value_t::boolean, false);
    return n.is_null() ? false : n.get<bool>();
  }
  int integer(const std::string& field, int def) const {
    const auto& n = node(field, json::value_t::number_float, false);
    if (n.is_null()) return def;
    if (!n.is_number_integer() && !n.is_number_unsigned()) fail(field, "expected an integer");
    return n.get<int>();
  }
  double number(const std::string& field, double def) const {
    const auto& n = node(field, json::value_t::number_float, false);
    return n.is_null() ? def : n.get<double>();
  }
  Reader child(const std::string& field, bool required = true) const {
    const auto& n = node(field, json::value_t::object, required);
    return {n.is_null() ? empty_object() : n, path_ + "." + field, source_};
  }
  std::map<std::string, std::string> string_map(const std::string& field) const {
    std::map<std::string, std::string> out;
    const auto& n = node(field, json::value_t::object, false);
    if (n.is_null()) return out;
    for (const auto& [k, v] : n.items()) {
      if (v.is_string())
        out[k] = v.get<std::string>();
      else if (v.is_number() || v.is_boolean())
        out[k] = v.dump();
      else
        fail(field + "." + k, "expected a string");
    }
    return out;
  }
  const json& raw() const { return j_; }
  const std::string& path() const { return path_; }

 private:
  static const json& empty_object() {
    static const json e = json::object();
    return e;
  }
  static const char* type_name(json::value_t t) {
    switch (t) {
      case json::value_t::object:
        return "an object";
      case json::value_t::array:
        return "an array";
      case json::value_t::string:
        return "a string";
      case json::value_t::boolean:
        return "a boolean";
      default:
        return "a number";
    }
  }
  const json& j_;
  std::string path_;
  const std::string& source_;
};

template <typename F>
auto parse_field(const Reader& r, const std::string& field, F&& parse) {
  try {
    return parse();
  } catch (const InputError& e) {
    r.fail(field, e.what());
  }
}

Result result_from_json(const Reader& r) {
  Result res;
  res.key.family = r.str("family");
  if (res.key.family.empty()) r.fail("family", "empty");
  res.key.params = r.string_map("params");
  res.key.metric = r.str("metric", false, "time");
  res.unit = r.str("unit", false, "ns");
  const std::string dir = r.str("direction", false);
  if (dir.empty()) {
    res.direction = direction_for_unit(res.unit).value_or(Direction::lower_is_better);
  } else {
    res.direction = parse_field(r, "direction", [&] { return direction_from_string(dir); });
  }
  const std::string status = r.str("status", false, "ok");
  res.status = parse_field(r, "status", [&] { return result_status_from_string(status); });
  res.message = r.str("message", false);
  const auto& samples = r.node("samples", json::value_t::array, false);
  if (!samples.is_null()) {
    for (std::size_t i = 0; i < samples.size(); ++i) {
      if (!samples[i].is_number())
        r.fail("samples[" + std::to_string(i) + "]", "expected a number");
      res.samples.push_back(samples[i].get<double>());
    }
  }
  res.summary = summarize(res.samples);
  if (res.samples.empty() && r.raw().contains("summary")) {
    // Only aggregates survive (e.g. samples pruned): keep the stored summary.
    const Reader s = r.child("summary");
    res.summary.n = static_cast<std::size_t>(s.integer("n", 0));
    res.summary.median = s.number("median", 0);
    res.summary.mean = s.number("mean", 0);
    res.summary.min = s.number("min", 0);
    res.summary.max = s.number("max", 0);
    res.summary.mad = s.number("mad", 0);
  }
  if (r.raw().contains("scale")) {
    const Reader s = r.child("scale");
    res.scale = Scale{s.integer("nodes", 1), s.integer("gpus_per_node", 0), s.integer("ranks", 1)};
    if (res.scale->nodes < 1) s.fail("nodes", "must be at least 1");
    if (res.scale->ranks < 1) s.fail("ranks", "must be at least 1");
    if (res.scale->gpus_per_node < 0) s.fail("gpus_per_node", "must not be negative");
  }
  if (r.raw().contains("extra")) res.extra = r.node("extra", json::value_t::object);
  return res;
}

}  // namespace

json to_document(const Run& run) {
  json context = {
      {"date", run.started_at},
      {"host_name", run.fingerprint.info.count("host") ? run.fingerprint.info.at("host") : ""},
      {"num_cpus", std::thread::hardware_concurrency()},
      {"library_build_type", run.fingerprint.comparable.count("build.type")
                                 ? run.fingerprint.comparable.at("build.type")
                                 : ""},
      {"perfgate_schema", "perfgate-result/" + std::to_string(kDocumentSchemaVersion)}};
  json results = json::array();
  for (const auto& r : run.results) results.push_back(result_to_json(r));
  json doc = {{"context", context},
              {"benchmarks", benchmark_rows(run)},
              {"perfgate",
               {{"schema_version", kDocumentSchemaVersion},
                {"run",
                 {{"uuid", run.uuid},
                  {"suite", run.suite},
                  {"trigger", to_string(run.trigger)},
                  {"code", code_to_json(run.code)},
                  {"started_at", run.started_at},
                  {"ended_at", run.ended_at},
                  {"status", to_string(run.status)},
                  {"labels", run.labels},
                  {"metadata", run.metadata}}},
                {"fingerprint",
                 {{"comparable", run.fingerprint.comparable},
                  {"info", run.fingerprint.info},
                  {"digest", run.fingerprint.digest()}}},
                {"results", results}}}};
  return doc;
}

bool is_perfgate_document(const json& doc) {
  return doc.is_object() && doc.contains("perfgate") && doc["perfgate"].is_object();
}

Run from_document(const json& doc, const std::string& source) {
  if (!doc.is_object()) throw InputError(source + ": expected a JSON object at the top level");
  if (!is_perfgate_document(doc))
    throw InputError(source + ": not a perfgate result document (no \"perfgate\" block)");
  const Reader pg(doc["perfgate"], "perfgate", source);
  const int version = pg.integer("schema_version", -1);
  if (version < 1) pg.fail("schema_version", "missing or invalid");
  if (version > kDocumentSchemaVersion)
    pg.fail("schema_version", "version " + std::to_string(version) +
                                  " is newer than this perfgate understands (" +
                                  std::to_string(kDocumentSchemaVersion) + "); upgrade perfgate");
  Run run;
  const Reader r = pg.child("run");
  run.uuid = r.str("uuid");
  if (run.uuid.empty()) r.fail("uuid", "empty");
  run.suite = r.str("suite", false);
  const std::string trigger = r.str("trigger", false, "adhoc");
  run.trigger = parse_field(r, "trigger", [&] { return trigger_from_string(trigger); });
  const Reader code = r.child("code", false);
  run.code = {code.str("repo", false), code.str("branch", false), code.str("commit", false),
              code.boolean("dirty")};
  run.started_at = r.str("started_at", false);
  run.ended_at = r.str("ended_at", false);
  const std::string status = r.str("status", false, "complete");
  run.status = parse_field(r, "status", [&] { return run_status_from_string(status); });
  run.labels = r.string_map("labels");
  if (r.raw().contains("metadata")) run.metadata = r.node("metadata", json::value_t::object);

  const Reader fp = pg.child("fingerprint", false);
  run.fingerprint.comparable = fp.string_map("comparable");
  run.fingerprint.info = fp.string_map("info");

  const auto& results = pg.node("results", json::value_t::array);
  for (std::size_t i = 0; i < results.size(); ++i)
    run.results.push_back(result_from_json(
        Reader(results[i], "perfgate.results[" + std::to_string(i) + "]", source)));
  return run;
}

Run read_document_file(const std::filesystem::path& path) {
  return from_document(read_json_file(path), path.string());
}

void write_document_file(const std::filesystem::path& path, const Run& run) {
  write_json_file_atomic(path, to_document(run));
}

}  // namespace perfgate
