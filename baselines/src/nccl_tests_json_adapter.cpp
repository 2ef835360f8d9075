// nccl-tests' JSON output (`-J FILE.json`, `--output_file`; format version 3) → Run. The JSON holds
// what the stdout log prints — the parameter line, one device per rank, the result rows — with
// numbers at full precision, so it is rewritten as that log and read by the one nccl-tests reader
// (nccl_tests_adapter.cpp): series, fingerprint and checks come out the same for a run whether
// its log or its JSON is ingested.
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

#include "nccl_tests_counts.hpp"
#include "perfgate/baselines/nccl_tests.hpp"
#include "perfgate/core/error.hpp"

namespace perfgate::baselines {
namespace {

// More ranks than any job runs: a bound on the log lines one JSON can make.
constexpr long long max_ranks = 65536;

class JsonToLog {
 public:
  explicit JsonToLog(const std::string& source) : source_(source) {}

  std::string log(const nlohmann::json& doc) {
    std::string out = fmt::format("# Collective test starting: {}\n", program(doc));
    const nlohmann::json& config = object(need(doc, "config", ""), "config");
    bitwise_ = find(config, "bitwise_repeats") != nullptr;
    out += parameters(config);
    out += launch_lines(doc);
    if (const auto* devices = find(config, "devices")) {
      const long long per_process = count(config, "nthreads") * count(config, "ngpus");
      const std::size_t processes = array(*devices, "config.devices").size();
      if (static_cast<long long>(processes) * per_process > max_ranks)
        fail("config.devices", fmt::format("more than {} ranks", max_ranks));
      for (std::size_t i = 0; i < processes; ++i)
        out += device_lines((*devices)[i], fmt::format("config.devices[{}]", i), per_process);
    }
    const nlohmann::json& results = array(need(doc, "results", ""), "results");
    cputime_ = reports_cputime(results);
    per_iteration_ = reports_per_iteration(results);
    const std::string group =
        fmt::format("{} algbw busbw #wrong{}{}", cputime_ ? "cputime" : "time",
                    bitwise_ ? " #bitdiff" : "", per_iteration_ ? " i_min i_max i_p99 i_cv%" : "");
    out += fmt::format("#  size count type redop root {0} {0}\n", group);
    for (std::size_t i = 0; i < results.size(); ++i)
      out += row(results[i], fmt::format("results[{}]", i));
    return out + bitwise_footer(doc) + average_footer(doc);
  }

 private:
  [[noreturn]] void fail(const std::string& path, const std::string& problem) const {
    throw InputError(fmt::format("{}: nccl-tests JSON: {}: {}", source_, path, problem));
  }

  // The bitwise check's footer line, as the log prints it ("# Bitwise mismatches   : 1 FAILED").
  std::string bitwise_footer(const nlohmann::json& doc) const {
    const nlohmann::json* footer = find(doc, "bitwise_mismatches");
    if (footer == nullptr) return "";
    object(*footer, "bitwise_mismatches");
    const long long n =
        count_of(need(*footer, "count", "bitwise_mismatches."), "bitwise_mismatches.count");
    return fmt::format("# Bitwise mismatches   : {} {}\n", n, n == 0 ? "OK" : "FAILED");
  }

  // The average's footer line, as the log prints it, with OK or FAILED where NCCL_TESTS_MIN_BW set
  // a floor ("okay" "true" or "false"; "unchecked" without one). nccl-tests writes an average over
  // no rows as "nan", which gives no line.
  std::string average_footer(const nlohmann::json& doc) const {
    const nlohmann::json* average = find(doc, "average_bus_bandwidth");
    if (average == nullptr) return "";
    object(*average, "average_bus_bandwidth");
    const nlohmann::json& bandwidth = need(*average, "bandwidth", "average_bus_bandwidth.");
    if (bandwidth == "nan") return "";
    if (!bandwidth.is_number()) fail("average_bus_bandwidth.bandwidth", "not a number");
    std::string verdict;
    if (const nlohmann::json* okay = find(*average, "okay")) {
      if (*okay == "true" || *okay == true)
        verdict = "OK";
      else if (*okay == "false" || *okay == false)
        verdict = "FAILED";
      else if (*okay != "unchecked")
        fail("average_bus_bandwidth.okay", "neither \"true\", \"false\" nor \"unchecked\"");
    }
    return fmt::format("# Avg bus bandwidth    : {} {}\n", bandwidth.get<double>(), verdict);
  }

  // A key's value; null when absent or null.
  static const nlohmann::json* find(const nlohmann::json& object, const char* key) {
    const auto it = object.find(key);
    if (it == object.end() || it->is_null()) return nullptr;
    return &*it;
  }

  const nlohmann::json& need(const nlohmann::json& object, const char* key,
                             const std::string& prefix) const {
    const nlohmann::json* v = find(object, key);
    if (v == nullptr) fail(prefix + key, "missing");
    return *v;
  }

  const nlohmann::json& object(const nlohmann::json& v, const std::string& path) const {
    if (!v.is_object()) fail(path, "not an object");
    return v;
  }

  const nlohmann::json& array(const nlohmann::json& v, const std::string& path) const {
    if (!v.is_array()) fail(path, "not an array");
    return v;
  }

  long long integer(const nlohmann::json& v, const std::string& path) const {
    if (!v.is_number_integer()) fail(path, "not a whole number");
    return v.get<long long>();
  }

  // A string that becomes one word of a log line (nccl-tests pads some: root "    -1").
  std::string word(const nlohmann::json& v, const std::string& path) const {
    if (!v.is_string()) fail(path, "not a string");
    const std::string s = v.get<std::string>();
    const auto first = s.find_first_not_of(' ');
    const auto last = s.find_last_not_of(' ');
    const std::string trimmed = first == std::string::npos ? "" : s.substr(first, last - first + 1);
    if (trimmed.empty() || trimmed.find_first_of(" \t\r\n") != std::string::npos)
      fail(path, "not one word");
    return trimmed;
  }

  // nccl-tests writes booleans as the strings "true" and "false".
  bool flag(const nlohmann::json& object, const char* key, const std::string& prefix) const {
    const nlohmann::json* v = find(object, key);
    if (v == nullptr) return false;
    if (v->is_boolean()) return v->get<bool>();
    if (v->is_string() && (*v == "true" || *v == "false")) return *v == "true";
    fail(prefix + key, "not true or false");
  }

  // The test binary: perfgate-collectives' "program" ("all_reduce_perf"), else from the command
  // line nccl-tests records ("./build/all_reduce_perf").
  std::string program(const nlohmann::json& doc) const {
    if (const nlohmann::json* named = find(doc, "program")) return word(*named, "program");
    const nlohmann::json* args = find(doc, "args");
    if (args == nullptr || !args->is_array() || args->empty() || !(*args)[0].is_string())
      return "unknown_perf";
    return std::filesystem::path((*args)[0].get<std::string>()).filename().string();
  }

  // The last value the kept command line gives option -S (long name `name`), read as nccl-tests'
  // getopt reads it: -S N, -SN, --name N or --name=N; nullopt when not given.
  std::optional<std::string> option_in_args(const nlohmann::json& doc, char short_name,
                                            const std::string& name) const {
    const nlohmann::json* args = find(doc, "args");
    if (args == nullptr || !args->is_array()) return std::nullopt;
    const std::string short_option = std::string("-") + short_name, long_option = "--" + name;
    std::optional<std::string> value;
    for (std::size_t i = 1; i < args->size(); ++i) {
      if (!(*args)[i].is_string()) continue;
      const std::string arg = (*args)[i].get<std::string>();
      if (arg == "--") break;
      const bool takes_next = arg == short_option || arg == long_option;
      if (takes_next && i + 1 < args->size() && (*args)[i + 1].is_string())
        value = (*args)[++i].get<std::string>();
      else if (arg.rfind(long_option + "=", 0) == 0)
        value = arg.substr(long_option.size() + 1);
      else if (arg.size() > 2 && arg.rfind(short_option, 0) == 0)
        value = arg.substr(2);
    }
    return value;
  }

  // -R and -x are not in the JSON's config, only in the command line it keeps: given, each
  // becomes a line of the form perfgate-collectives prints for it (the reader needs only the
  // value, taken by strtol as nccl-tests takes it, so text is 0); other values are refused.
  std::string launch_lines(const nlohmann::json& doc) const {
    std::string lines;
    const std::optional<std::string> registered = option_in_args(doc, 'R', "local_register");
    const long registration = registered ? std::strtol(registered->c_str(), nullptr, 0) : 0;
    if (registration != 0 && registration != 1 && registration != 2)
      fail("args",
           fmt::format("-R {}: not 0, 1 (ncclCommRegister) or 2 (symmetric windows)", *registered));
    if (registration != 0) lines += fmt::format("# Registered buffers: (-R {}) \n", registration);
    if (const std::optional<std::string> policy = option_in_args(doc, 'x', "cta_policy")) {
      const long n = std::strtol(policy->c_str(), nullptr, 0);
      if (n < 0 || n > 2)
        fail("args", fmt::format("-x {}: not 0 (default), 1 (efficiency) or 2 (zero)", *policy));
      lines += fmt::format("# CTA policy: (-x {}) \n", n);
    }
    return lines;
  }

  std::string parameters(const nlohmann::json& config) const {
    const auto number = [&](const char* key, long long otherwise) {
      const nlohmann::json* v = find(config, key);
      return v == nullptr ? otherwise : integer(*v, std::string("config.") + key);
    };
    const nlohmann::json* factor = find(config, "step_factor");
    const std::string step = factor != nullptr
                                 ? fmt::format("{}(factor)", integer(*factor, "config.step_factor"))
                                 : fmt::format("{}(bytes)", number("step_bytes", 0));
    std::string out = fmt::format(
        "# nThread {} nGpus {} minBytes {} maxBytes {} step: {} warmup iters: {} iters: {} agg "
        "iters: {} validation: {} graph: {}\n",
        number("nthreads", 1), number("ngpus", 1), number("minimum_bytes", 0),
        number("maximum_bytes", 0), step, number("warmup_iters", 0), number("iterations", 0),
        number("aggregated_iterations", 1), number("validation", 0), number("graph", 0));
    // The JSON keeps only whether -z was given, not which mode: read as -z 1.
    if (flag(config, "blocking_collectives", "config."))
      out += "# Blocking Enabled: wait and barrier after each inner iteration (-m) \n";
    // The line the log prints for the bitwise check (-I's report line names a clock the JSON
    // does not record: -K's skip is read from the config instead).
    if (bitwise_)
      out += fmt::format("# Bitwise Repeatability: {} comparisons after one reference run \n",
                         number("bitwise_repeats", 0));
    return out;
  }

  // config.nthreads or config.ngpus: 1 when absent, else a count of 1 or more.
  long long count(const nlohmann::json& config, const char* key) const {
    const nlohmann::json* v = find(config, key);
    if (v == nullptr) return 1;
    const long long n = integer(*v, std::string("config.") + key);
    if (n < 1 || n > max_ranks)
      fail(std::string("config.") + key, fmt::format("not a count from 1 to {}", max_ranks));
    return n;
  }

  // nccl-tests' JSON names one device per process, its first rank's; a process runs
  // nthreads x ngpus ranks (-t, -g), on its host, numbered and placed after the first. Their
  // bus ids are not recorded.
  std::string device_lines(const nlohmann::json& d, const std::string& path,
                           long long per_process) const {
    object(d, path);
    const nlohmann::json& name = need(d, "device_info", path + ".");
    if (!name.is_string()) fail(path + ".device_info", "not a string");
    const long long rank = integer(need(d, "rank", path + "."), path + ".rank");
    const long long device = integer(need(d, "device", path + "."), path + ".device");
    const std::string bus = word(need(d, "device_hex", path + "."), path + ".device_hex");
    std::string out;
    for (long long i = 0; i < per_process; ++i) {
      out += fmt::format("#  Rank {} Group {} Pid {} on {} device {} [{}] {}\n", rank + i,
                         integer(need(d, "group", path + "."), path + ".group"),
                         integer(need(d, "pid", path + "."), path + ".pid"),
                         word(need(d, "hostname", path + "."), path + ".hostname"), device + i,
                         i == 0 || bus == "cpu" ? bus : "unrecorded", name.get<std::string>());
    }
    return out;
  }

  // nccl-tests -C 1 writes each placement's launch time as "cpu_time" where it writes "time"
  // otherwise; the first placement tells which (a placement of the other kind then lacks it).
  static bool reports_cputime(const nlohmann::json& results) {
    for (const nlohmann::json& row : results) {
      if (!row.is_object()) continue;
      for (const char* key : {"out_of_place", "in_place"}) {
        const nlohmann::json* p = find(row, key);
        if (p != nullptr && p->is_object()) return p->contains("cpu_time");
      }
    }
    return false;
  }

  // The newest nccl-tests' per-iteration report adds "out_of_place_per_iter" and
  // "in_place_per_iter" objects beside the placements.
  static bool reports_per_iteration(const nlohmann::json& results) {
    for (const nlohmann::json& row : results) {
      if (!row.is_object()) continue;
      for (const char* key : {"out_of_place_per_iter", "in_place_per_iter"})
        if (find(row, key) != nullptr) return true;
    }
    return false;
  }

  // The log's per-iteration columns of one placement (i_min i_max i_p99 i_cv%), "N/A" where the
  // row has none.
  std::string per_iteration(const nlohmann::json& row, const std::string& key,
                            const std::string& path) const {
    const nlohmann::json* p = find(row, (key + "_per_iter").c_str());
    if (p == nullptr) return " N/A N/A N/A N/A";
    const std::string at = path + "." + key + "_per_iter";
    object(*p, at);
    std::string out;
    for (const char* column : {"min_us", "max_us", "p99_us", "cv_pct"}) {
      const nlohmann::json& v = need(*p, column, at + ".");
      if (!v.is_number()) fail(at + "." + column, "not a number");
      out += fmt::format(" {}", v.get<double>());
    }
    return out;
  }

  // One placement's columns; "N/A" where it was not measured (null, or nccl-tests' "nan").
  std::string placement(const nlohmann::json& row, const char* key, const std::string& path) const {
    return columns(row, key, path) + (bitwise_ ? bit_differences(row, key, path) : "") +
           (per_iteration_ ? per_iteration(row, key, path) : "");
  }

  // The bitwise check's column (#bitdiff): the placement's "bitwise" object's different_bits.
  std::string bit_differences(const nlohmann::json& row, const char* key,
                              const std::string& path) const {
    const nlohmann::json* p = find(row, key);
    const nlohmann::json* bitwise = p != nullptr && p->is_object() ? find(*p, "bitwise") : nullptr;
    if (bitwise == nullptr) return " N/A";
    const std::string at = path + "." + key + ".bitwise";
    object(*bitwise, at);
    return fmt::format(
        " {}", count_of(need(*bitwise, "different_bits", at + "."), at + ".different_bits"));
  }

  // A count nccl-tests writes as a number (nwrong as a double).
  long long count_of(const nlohmann::json& v, const std::string& path) const {
    const auto n = v.is_number() ? nccl_tests_count(v.get<double>()) : std::nullopt;
    if (!n) fail(path, "not a count");
    return *n;
  }

  std::string columns(const nlohmann::json& row, const char* key, const std::string& path) const {
    const nlohmann::json* p = find(row, key);
    if (p == nullptr) return " N/A N/A N/A N/A";
    const std::string at = path + "." + key;
    object(*p, at);
    std::string out;
    for (const char* column : {cputime_ ? "cpu_time" : "time", "alg_bw", "bus_bw"}) {
      const nlohmann::json& v = need(*p, column, at + ".");
      if (v.is_string() && v == "nan") {
        out += " N/A";
        continue;
      }
      if (!v.is_number()) fail(at + "." + column, "not a number");
      out += fmt::format(" {}", v.get<double>());
    }
    const nlohmann::json* wrong = find(*p, "nwrong");
    if (wrong == nullptr) return out + " N/A";
    return out + fmt::format(" {}", count_of(*wrong, at + ".nwrong"));
  }

  std::string row(const nlohmann::json& r, const std::string& path) const {
    object(r, path);
    const nlohmann::json& root = need(r, "root", path + ".");
    const std::string root_text = root.is_number_integer() ? std::to_string(root.get<long long>())
                                                           : word(root, path + ".root");
    return fmt::format("{} {} {} {} {}{}{}\n", integer(need(r, "size", path + "."), path + ".size"),
                       integer(need(r, "count", path + "."), path + ".count"),
                       word(need(r, "type", path + "."), path + ".type"),
                       word(need(r, "redop", path + "."), path + ".redop"), root_text,
                       placement(r, "out_of_place", path), placement(r, "in_place", path));
  }

  std::string source_;
  bool cputime_ = false;
  bool per_iteration_ = false;
  bool bitwise_ = false;  // config.bitwise_repeats: the rows carry the bitwise check's counts
};

}  // namespace

bool looks_like_nccl_tests_json(const nlohmann::json& doc) {
  return doc.is_object() && doc.contains("config") && doc.contains("results") &&
         doc.contains("nccl_version");
}

Run from_nccl_tests_json(const nlohmann::json& doc, const std::string& source) {
  if (!doc.is_object()) throw InputError(source + ": nccl-tests JSON: not an object");
  Run run = from_nccl_tests_log(JsonToLog(source).log(doc), source);
  // The library's NCCL_VERSION_CODE, as the log's "nccl-library=" and perfgate-collectives give it.
  if (const auto v = doc.find("nccl_version"); v != doc.end() && v->is_number_integer())
    run.fingerprint.comparable["nccl.version"] = std::to_string(v->get<long long>());
  if (const auto v = doc.find("version"); v != doc.end() && v->is_number_integer())
    run.metadata["nccl_tests"]["json_version"] = v->get<int>();
  if (const auto v = doc.find("start_time"); v != doc.end() && v->is_string())
    run.metadata["nccl_tests"]["start_time"] = *v;
  if (const auto config = doc.find("config"); config != doc.end() && config->is_object()) {
    if (const auto v = config->find("per_iter_skip"); v != config->end() && v->is_number_integer())
      run.metadata["nccl_tests"]["per_iter_skip"] = v->get<long long>();
  }
  return run;
}

}  // namespace perfgate::baselines
