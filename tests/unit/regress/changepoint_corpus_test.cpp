// Real series nobody here wrote (corpus/README.md): TigerBeetle (apache/otava tests) and Mozilla
// Talos (mozilla/treeherder sample data). docs/statistics.md discusses every difference.
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "perfgate/regress/changepoints.hpp"

using namespace perfgate::regress;

namespace {

std::vector<double> tigerbeetle() {
  std::ifstream in(std::string(PERFGATE_CORPUS) + "/tigerbeetle/series.csv");
  REQUIRE(in);
  std::string line;
  std::getline(in, line);  // header
  std::vector<double> values;
  while (std::getline(in, line)) values.push_back(std::stod(line.substr(line.find(',') + 1)));
  return values;
}

struct Talos {
  std::vector<double> values;
  std::vector<std::string> push_timestamps;
};

Talos talos(const std::string& file) {
  std::ifstream in(std::string(PERFGATE_CORPUS) + "/talos/" + file);
  REQUIRE(in);
  const nlohmann::json doc = nlohmann::json::parse(in);
  Talos t;
  for (const auto& run : doc.at("test_runs")) {
    t.push_timestamps.push_back(std::to_string(run.at(2).get<long long>()));
    t.values.push_back(run.at(3).get<double>());
  }
  return t;
}

std::vector<std::size_t> indices(const ChangeReport& r) {
  std::vector<std::size_t> out;
  for (const auto& cp : r.change_points) out.push_back(cp.index);
  return out;
}

bool has_near(const std::vector<std::size_t>& found, std::size_t want, std::size_t slack) {
  for (std::size_t i : found)
    if (i + slack >= want && i <= want + slack) return true;
  return false;
}

}  // namespace

TEST_CASE("TigerBeetle: the maintainers' steps are found and index 10 is an outlier") {
  DetectConfig config;
  config.direction = perfgate::Direction::higher_is_better;  // throughput
  const ChangeReport r = detect_change_points(tigerbeetle(), {}, config);
  const auto found = indices(r);
  INFO("change points: " << Catch::Detail::stringify(found));
  CHECK(has_near(found, 15, 1));
  CHECK(has_near(found, 71, 0));
  CHECK(has_near(found, 96, 1));
  CHECK_FALSE(has_near(found, 10, 0));
  bool outlier_10 = false;
  for (const auto& o : r.outliers) outlier_10 = outlier_10 || o.index == 10;
  CHECK(outlier_10);
}

TEST_CASE("Talos runs5 (bimodal, interleaved): no change point") {
  const Talos t = talos("runs5.json");
  const ChangeReport r = detect_change_points(t.values, t.push_timestamps, DetectConfig{});
  INFO("change points: " << Catch::Detail::stringify(indices(r)));
  CHECK(r.change_points.empty());
}

TEST_CASE("Talos series: where Mozilla's detector alerts") {
  const std::vector<std::pair<std::string, std::vector<std::string>>> expected = {
      {"runs1.json", {"1365019665"}},
      {"runs2.json", {"1357704596", "1358971894", "1365014104"}},
      {"runs3.json", {"1335293827", "1338839958"}},
      {"runs4.json", {"1364922838"}},
      {"a11y.json", {"1366197637", "1367799757"}},
      {"tp5rss.json", {"1372846906", "1373413365", "1373424974"}}};
  for (const auto& [file, alerts] : expected) {
    const Talos t = talos(file);
    const ChangeReport r = detect_change_points(t.values, t.push_timestamps, DetectConfig{});
    std::ostringstream found;
    for (const auto& cp : r.change_points)
      found << " [" << cp.index << " " << cp.label << " " << cp.relative_change
            << (cp.confirmed ? "" : " suspected") << "]";
    std::ostringstream want;
    for (const auto& a : alerts) {
      const auto at = std::find(t.push_timestamps.begin(), t.push_timestamps.end(), a) -
                      t.push_timestamps.begin();
      want << " " << at;
    }
    WARN(file << " n=" << t.values.size() << " mozilla at" << want.str()
              << "; perfgate:" << found.str());
  }
}
