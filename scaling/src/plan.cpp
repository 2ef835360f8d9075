#include "perfgate/scaling/plan.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <limits>
#include <optional>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <toml++/toml.h>

#include "perfgate/collectives/collective.hpp"
#include "perfgate/core/byte_size.hpp"
#include "perfgate/core/error.hpp"

namespace perfgate::scaling {

std::string_view to_string(ScalingMode m) {
  return m == ScalingMode::weak ? "weak" : "strong";
}

std::string_view to_string(WorkloadKind k) {
  switch (k) {
    case WorkloadKind::collective:
      return "collective";
    case WorkloadKind::overlap:
      return "overlap";
    case WorkloadKind::buckets:
      return "buckets";
    case WorkloadKind::step_proxy:
      return "step_proxy";
  }
  return "collective";
}

std::string ScalePoint::label() const {
  return fmt::format("N{}xR{}", nodes, ranks_per_node);
}

namespace {

// A size string of a plan ("1M"): at least one byte.
long long positive_size(const std::string& text, const std::string& what) {
  const std::uint64_t bytes = parse_byte_size(text, what);
  if (bytes == 0) throw InputError(fmt::format("{}: size '{}' must be positive", what, text));
  return static_cast<long long>(bytes);  // parse_byte_size stops at 2^63 - 1
}

// The collective of perfgate-collectives named `name` exactly ("all_reduce"), if any.
std::optional<collectives::Collective> collective_named(const std::string& name) {
  for (collectives::Collective c : collectives::all_collectives())
    if (collectives::info(c).name == name) return c;
  return std::nullopt;
}

constexpr long long kLargestInt = std::numeric_limits<int>::max();

// Reads one [[sweep]] table; every error names file:line and the key.
class TableReader {
 public:
  TableReader(const toml::table& t, std::string source) : t_(t), source_(std::move(source)) {}

  [[noreturn]] void fail(const std::string& key, const std::string& problem) const {
    throw InputError(fmt::format("{}: {}: {}", location(key), key, problem));
  }
  // "file:line" of `key`, or of the table when the key is absent.
  std::string location(const std::string& key) const {
    const toml::node* n = t_.get(key);
    return fmt::format("{}:{}", source_, n ? n->source().begin.line : t_.source().begin.line);
  }
  const std::string& source() const { return source_; }
  std::string where() const { return fmt::format("{}:{}", source_, t_.source().begin.line); }

  bool has(const std::string& key) const { return t_.contains(key); }

  // A size string under `key` ("1M"): the byte-size parser's message, after file:line.
  long long size(const std::string& key, const std::string& text) const {
    try {
      return positive_size(text, key);
    } catch (const InputError& e) {
      throw InputError(fmt::format("{}: {}", location(key), e.what()));
    }
  }

  std::string text(const std::string& key, std::string fallback) const {
    const toml::node* n = t_.get(key);
    if (!n) return fallback;
    if (!n->is_string()) fail(key, "expected a string");
    return std::string(*n->value<std::string>());
  }

  long long integer(const std::string& key, long long fallback, long long min,
                    long long max = kLargestInt) const {
    const toml::node* n = t_.get(key);
    if (!n) return fallback;
    if (!n->is_integer()) fail(key, "expected an integer");
    const long long v = *n->value<long long>();
    if (v < min) fail(key, fmt::format("must be at least {}", min));
    if (v > max) fail(key, fmt::format("must be at most {}", max));
    return v;
  }

  // Counts the plan keeps as int (ranks, iterations, model dimensions) stop at INT_MAX.
  int count(const std::string& key, int fallback, int min) const {
    return static_cast<int>(integer(key, fallback, min));
  }

  std::vector<long long> integers(const std::string& key, long long min) const {
    const toml::array* a = t_.get_as<toml::array>(key);
    if (!a) {
      if (has(key)) fail(key, "expected an array of integers");
      return {};
    }
    std::vector<long long> out;
    for (const toml::node& n : *a) {
      if (!n.is_integer()) fail(key, "expected an array of integers");
      const long long v = *n.value<long long>();
      if (v < min) fail(key, fmt::format("{} is below {}", v, min));
      if (v > kLargestInt) fail(key, fmt::format("{} is above {}", v, kLargestInt));
      out.push_back(v);
    }
    if (out.empty()) fail(key, "must not be empty");
    return out;
  }

  // Integers or size strings ("1M").
  std::vector<long long> sizes(const std::string& key) const {
    const toml::array* a = t_.get_as<toml::array>(key);
    if (!a) {
      if (has(key)) fail(key, "expected an array of sizes");
      return {};
    }
    std::vector<long long> out;
    for (const toml::node& n : *a) {
      if (n.is_integer() && *n.value<long long>() > 0) {
        out.push_back(*n.value<long long>());
      } else if (n.is_string()) {
        out.push_back(size(key, *n.value<std::string>()));
      } else {
        fail(key, "expected positive integers or strings like \"1M\"");
      }
    }
    if (out.empty()) fail(key, "must not be empty");
    return out;
  }

  std::vector<std::string> strings(const std::string& key) const {
    std::vector<std::string> out;
    const toml::array* a = t_.get_as<toml::array>(key);
    if (!a) {
      if (has(key)) fail(key, "expected an array of strings");
      return out;
    }
    for (const toml::node& n : *a) {
      if (!n.is_string()) fail(key, "expected an array of strings");
      out.emplace_back(*n.value<std::string>());
    }
    return out;
  }

  std::map<std::string, std::string> string_table(const std::string& key) const {
    std::map<std::string, std::string> out;
    const toml::table* sub = t_.get_as<toml::table>(key);
    if (!sub) {
      if (has(key)) fail(key, "expected a table of strings");
      return out;
    }
    for (const auto& [k, v] : *sub) {
      if (!v.is_string()) fail(fmt::format("{}.{}", key, k.str()), "expected a string");
      out.emplace(std::string(k.str()), *v.value<std::string>());
    }
    return out;
  }

  const toml::table* sub(const std::string& key) const {
    const toml::table* s = t_.get_as<toml::table>(key);
    if (!s && has(key)) fail(key, "expected a table");
    return s;
  }

  void reject_unknown(const std::set<std::string>& known) const {
    for (const auto& [k, v] : t_)
      if (!known.count(std::string(k.str()))) fail(std::string(k.str()), "unknown key");
  }

 private:
  const toml::table& t_;
  std::string source_;
};

Workload read_workload(const TableReader& r) {
  Workload w;
  const std::string name = r.text("workload", "");
  if (name.empty()) r.fail("workload", "missing (a collective, overlap, buckets or step_proxy)");
  if (collective_named(name)) {
    w.kind = WorkloadKind::collective;
    w.collective = name;
  } else if (name == "overlap") {
    w.kind = WorkloadKind::overlap;
  } else if (name == "buckets") {
    w.kind = WorkloadKind::buckets;
  } else if (name == "step_proxy") {
    w.kind = WorkloadKind::step_proxy;
  } else {
    r.fail("workload", fmt::format("unknown workload '{}'", name));
  }
  const bool proxy = w.kind == WorkloadKind::step_proxy;
  w.backend = r.text("backend", proxy ? "cpu" : "mpi");
  const std::set<std::string> backends =
      proxy ? std::set<std::string>{"cpu", "cuda"} : std::set<std::string>{"mpi", "nccl", "auto"};
  if (!backends.count(w.backend)) r.fail("backend", fmt::format("unknown backend '{}'", w.backend));
  if (auto s = r.sizes("sizes"); !s.empty()) w.sizes = s;
  w.iters = r.count("iters", w.iters, 1);
  w.warmup = r.count("warmup", w.warmup, 0);
  w.repetitions = r.count("repetitions", w.repetitions, 1);
  w.extra_args = r.strings("args");
  if (const toml::table* p = r.sub("model")) {
    if (!proxy) r.fail("model", "only the step_proxy workload has a model");
    const TableReader m(*p, r.source());
    m.reject_unknown({"layers", "hidden", "heads", "seq", "batch", "bucket_bytes"});
    w.proxy.layers = m.count("layers", w.proxy.layers, 1);
    w.proxy.hidden = m.count("hidden", w.proxy.hidden, 8);
    w.proxy.heads = m.count("heads", w.proxy.heads, 1);
    w.proxy.seq = m.count("seq", w.proxy.seq, 1);
    w.proxy.batch = m.count("batch", w.proxy.batch, 1);
    if (m.has("bucket_bytes")) {
      const toml::node* n = p->get("bucket_bytes");
      w.proxy.bucket_bytes =
          n->is_string() ? m.size("bucket_bytes", *n->value<std::string>())
                         : m.integer("bucket_bytes", 0, 1, std::numeric_limits<long long>::max());
    }
    if (w.proxy.hidden % w.proxy.heads != 0) m.fail("heads", "must divide hidden");
  }
  return w;
}

std::vector<ScalePoint> read_points(const TableReader& r) {
  std::vector<long long> nodes = r.integers("nodes", 1);
  if (nodes.empty()) nodes = {1};
  const int rpn = r.count("ranks_per_node", 1, 1);
  const int gpn = r.count("gpus_per_node", 0, 0);
  std::sort(nodes.begin(), nodes.end());
  if (std::adjacent_find(nodes.begin(), nodes.end()) != nodes.end())
    r.fail("nodes", "repeats a value");
  // MPI numbers ranks with an int: the largest point must fit one.
  if (nodes.back() * rpn > kLargestInt)
    r.fail("ranks_per_node", fmt::format("{} nodes of {} ranks is more than {} ranks", nodes.back(),
                                         rpn, kLargestInt));
  std::vector<ScalePoint> points;
  for (long long n : nodes) points.push_back({static_cast<int>(n), rpn, gpn});
  return points;
}

SweepPlan read_plan(const toml::table& t, const std::string& source) {
  const TableReader r(t, source);
  r.reject_unknown({"name", "workload", "mode", "nodes", "ranks_per_node", "gpus_per_node", "sizes",
                    "backend", "iters", "warmup", "repetitions", "args", "env", "model",
                    "point_timeout_s"});
  SweepPlan plan;
  plan.source = r.where();
  plan.name = r.text("name", "");
  if (plan.name.empty()) r.fail("name", "missing");
  plan.workload = read_workload(r);
  const std::string mode = r.text("mode", "weak");
  if (mode != "weak" && mode != "strong") r.fail("mode", "expected \"weak\" or \"strong\"");
  plan.mode = mode == "weak" ? ScalingMode::weak : ScalingMode::strong;
  plan.points = read_points(r);
  // A point perfgate-collectives would refuse (hypercube on 3 ranks) is refused with the plan,
  // not after the sweep's earlier points have run.
  const auto c = plan.workload.kind == WorkloadKind::collective
                     ? collective_named(plan.workload.collective)
                     : std::nullopt;
  if (c) {
    for (const ScalePoint& p : plan.points) {
      if (const auto why = collectives::rank_count_refusal(*c, p.ranks()))
        r.fail(r.has("ranks_per_node") ? "ranks_per_node" : "nodes",
               fmt::format("{}: {}", p.label(), *why));
    }
  }
  plan.env = r.string_table("env");
  plan.point_timeout_s = r.count("point_timeout_s", plan.point_timeout_s, 1);
  return plan;
}

}  // namespace

std::vector<SweepPlan> parse_plan_text(const std::string& text, const std::string& source) {
  toml::table root;
  try {
    root = toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    throw InputError(fmt::format("{}:{}: {}", source, e.source().begin.line, e.description()));
  }
  const toml::array* sweeps = root.get_as<toml::array>("sweep");
  if (!sweeps) throw InputError(fmt::format("{}: sweep: no [[sweep]] tables", source));
  std::vector<SweepPlan> plans;
  std::set<std::string> names;
  for (const toml::node& n : *sweeps) {
    const toml::table* t = n.as_table();
    if (!t)
      throw InputError(fmt::format("{}:{}: sweep: expected tables", source, n.source().begin.line));
    SweepPlan p = read_plan(*t, source);
    if (!names.insert(p.name).second)
      throw InputError(fmt::format("{}: name: sweep '{}' is declared twice", p.source, p.name));
    plans.push_back(std::move(p));
  }
  return plans;
}

std::vector<SweepPlan> parse_plan_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw InputError(fmt::format("{}: cannot read the sweep plan file", path.string()));
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parse_plan_text(buffer.str(), path.string());
}

const SweepPlan& find_plan(const std::vector<SweepPlan>& plans, const std::string& name) {
  std::string known;
  for (const SweepPlan& p : plans) {
    if (p.name == name) return p;
    known += (known.empty() ? "" : ", ") + p.name;
  }
  throw InputError(fmt::format("sweep '{}' is not in the plan file (it has: {})", name, known));
}

}  // namespace perfgate::scaling
