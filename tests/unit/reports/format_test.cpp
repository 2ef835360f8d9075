#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "perfgate/core/error.hpp"
#include "perfgate/report/report.hpp"
#include "sample_comparison.hpp"

using namespace perfgate;
using namespace perfgate::report;
using namespace perfgate::report::testing;

TEST_CASE("format lists parse, drop duplicates and name bad values") {
  CHECK(formats_from_list("markdown,junit,markdown") ==
        std::vector<Format>{Format::markdown, Format::junit});
  CHECK(formats_from_list("html") == std::vector<Format>{Format::html});
  CHECK_THROWS_WITH(formats_from_list("markdown,pdf"), Catch::Contains("'pdf'"));
  CHECK_THROWS_AS(formats_from_list("markdown,,json"), InputError);
  CHECK(file_name(Format::junit) == "junit.xml");
}

TEST_CASE("json carries every verdict with its evidence") {
  const auto doc = nlohmann::json::parse(render(Format::json, sample_input()));
  CHECK(doc.at("status") == "REGRESSION");
  REQUIRE(doc.at("verdicts").size() == 10);
  const auto& worst = doc.at("verdicts")[0];
  CHECK(worst.at("verdict") == "REGRESSION");
  CHECK(worst.at("ratio").get<double>() == Approx(1.123));
  CHECK(worst.at("p_adjusted").get<double>() == Approx(0.004));
  CHECK(worst.at("baseline_runs") == nlohmann::json::array({"base-run-1"}));
  CHECK(doc.at("counts").at("SAME") == 2);
  bool found_hostile = false;
  for (const auto& v : doc.at("verdicts"))
    if (v.at("series_id") == kHostileName) {
      found_hostile = true;
      CHECK(v.at("p_value").is_null());
      CHECK(v.at("repetitions_needed") == 4);
    }
  CHECK(found_hostile);
}

TEST_CASE("html is self-contained, escapes every name and draws every chart") {
  const std::string html = render(Format::html, sample_input());
  CHECK(html.find("<script>document") == std::string::npos);
  CHECK(html.find("<img src=x") == std::string::npos);
  CHECK(html.find("&lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt;") !=
        std::string::npos);
  CHECK(html.find("http://") == html.find("http://www.w3.org/2000/svg"));  // only the SVG namespace
  CHECK(html.find("https://") == std::string::npos);
  std::size_t svgs = 0;
  for (auto at = html.find("<svg"); at != std::string::npos; at = html.find("<svg", at + 1)) ++svgs;
  CHECK(svgs == 4);  // two histories, one scaling curve, one step chart
  CHECK(html.find("class=\"change-point\"") != std::string::npos);
  CHECK(html.find("class=\"band\"") != std::string::npos);
  CHECK(html.find("class=\"bar exposed\"") != std::string::npos);
  std::size_t scripts = 0;
  for (auto at = html.find("<script"); at != std::string::npos; at = html.find("<script", at + 1))
    ++scripts;
  CHECK(scripts == 1);
}

TEST_CASE("write_reports writes one file per format, or nothing") {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("perfgate-report-test-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  const auto written =
      write_reports(dir, {Format::markdown, Format::junit, Format::json}, sample_input());
  CHECK(written.size() == 3);
  CHECK(std::filesystem::exists(dir / "report.md"));
  CHECK(std::filesystem::exists(dir / "junit.xml"));
  CHECK(std::filesystem::exists(dir / "report.json"));
  std::ofstream(dir / "blocker") << "a file";
  CHECK_THROWS_AS(write_reports(dir / "blocker" / "sub", {Format::json}, sample_input()),
                  ToolError);
  std::filesystem::remove_all(dir);
}
