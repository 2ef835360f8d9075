// nccl-tests logs captured with Open MPI's `mpirun --xml`: every line of every process escaped
// inside <stdout rank="N"> elements, which perfgate reads as the log they wrap.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "nccl_log_text.hpp"
#include "perfgate/baselines/ingest.hpp"
#include "perfgate/baselines/nccl_tests.hpp"
#include "perfgate/core/error.hpp"

using namespace perfgate;
using namespace perfgate::baselines;
using namespace perfgate::test;

namespace {

const std::filesystem::path kData = std::filesystem::path(PERFGATE_TEST_DATA) / "baselines";

// Bytes as mpirun --xml escapes them: markup by name, every byte outside printable ASCII by its
// value in three digits ("&#010;" for the newline, "&#195;&#169;" for UTF-8's "é").
std::string escaped(std::string_view text) {
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '<') {
      out += "&lt;";
    } else if (c == '>') {
      out += "&gt;";
    } else if (c == '&') {
      out += "&amp;";
    } else if (byte < 0x20 || byte > 0x7E) {
      const std::string digits = std::to_string(byte);
      out += "&#" + std::string(3 - digits.size(), '0') + digits + ";";
    } else {
      out += c;
    }
  }
  return out;
}

// One element as mpirun writes it: a line break after it only where its text ended a line.
std::string element(const std::string& opening, std::string_view text) {
  const std::string name = opening.substr(1, 6);
  return opening + escaped(text) + "</" + name + ">" + (text.back() == '\n' ? "\n" : "");
}

// `plain` as mpirun --xml --display-map leaves rank 0's output of it: each line in two
// elements, as a process that wrote it in two pieces; between the pieces of rank 3's line in the
// device list, a whole line of rank 3 (NCCL's start-up report) and one of mpirun's own (no rank).
std::string as_mpirun_xml(const std::string& plain) {
  std::string out =
      "<mpirun>\n Data for JOB [22176,1] offset 0 Total slots allocated 8\n<map>\n"
      "\t<host name=\"dgx-a01\" slots=\"8\" max_slots=\"0\">\n"
      "\t\t<process rank=\"0\" status=\"INITIALIZED\"/>\n\t</host>\n</map>\n\n";
  const std::vector<std::string> lines = lines_of(plain);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string line = lines[i] + "\n";
    const std::size_t cut = std::min<std::size_t>(5, line.size() - 1);
    out += element("<stdout rank=\"0\">", std::string_view(line).substr(0, cut));
    if (line.rfind("#  Rank  3 ", 0) == 0) {
      out += element("<stdout rank=\"3\">",
                     "dgx-a01:41214:41300 [3] NCCL INFO comm 0x5581 rank 3 nranks 8\n");
      out += element("<stderr>", "Warning: Permanently added 'dgx-a01' to known hosts.\n");
    }
    out += element("<stdout rank=\"0\">", std::string_view(line).substr(cut));
  }
  return out + "</mpirun>\n";
}

}  // namespace

TEST_CASE("an mpirun --xml log ingests as the log it wraps") {
  // GPU names that need escaping: markup, quotes, a tab and two bytes of UTF-8.
  std::string plain = read_text(kData / "nccl_single_node.log");
  const std::string model = "NVIDIA H100 80GB HBM3";
  for (std::size_t at = plain.find(model); at != std::string::npos; at = plain.find(model, at))
    plain.replace(at, model.size(), "NVIDIA H100 <80GB> & \"HBM3\"\t'r\xC3\xA9v'");
  const Run expected = from_nccl_tests_log(plain, "plain.log");
  REQUIRE(expected.results.size() == 24);
  REQUIRE(expected.fingerprint.comparable.at("gpu.model").find("<80GB> &") != std::string::npos);

  const std::string xml = as_mpirun_xml(plain);
  REQUIRE(xml.find("&#195;&#169;") != std::string::npos);
  const Run run = ingest_text(xml, "perfgate-mpirun.xml.log");
  CHECK(described(run) == described(expected));
  CHECK(run.fingerprint.comparable == expected.fingerprint.comparable);
  CHECK(run.metadata["nccl_tests"]["launcher_tags"] ==
        nlohmann::json{{"style", "open-mpi"}, {"rank", "0"}, {"xml", true}});
  CHECK(run.metadata["nccl_tests"]["avg_busbw"] == expected.metadata["nccl_tests"]["avg_busbw"]);
  CHECK(run.labels.at("source_format") == "nccl-tests");
}

TEST_CASE("an mpirun --xml log re-saved with code points above 255 reads them as UTF-8") {
  // mpirun escapes bytes; a file an editor or a converter re-saved may hold characters instead,
  // in decimal or hex: two, three and four bytes of UTF-8.
  std::string plain = read_text(kData / "nccl_single_node.log");
  const std::string model = "NVIDIA H100 80GB HBM3";
  const std::string named = "NVIDIA H100 \xCF\x80 \xE2\x82\xAC \xF0\x9F\x9A\x80";  // π € 🚀
  for (std::size_t at = plain.find(model); at != std::string::npos; at = plain.find(model, at))
    plain.replace(at, model.size(), named);
  std::string xml = as_mpirun_xml(plain);
  const std::string bytes = "&#207;&#128; &#226;&#130;&#172; &#240;&#159;&#154;&#128;";
  REQUIRE(xml.find(bytes) != std::string::npos);
  for (std::size_t at = xml.find(bytes); at != std::string::npos; at = xml.find(bytes, at))
    xml.replace(at, bytes.size(), "&#960; &#x20AC; &#X1f680;");
  const Run run = from_nccl_tests_log(xml, "resaved.xml.log");
  CHECK(run.fingerprint.comparable.at("gpu.model") == named);
  CHECK(described(run) == described(from_nccl_tests_log(plain, "plain.log")));
  // Not characters: a surrogate's half and a number past Unicode's last.
  const std::string header = "<mpirun>\n<stdout rank=\"0\">#  size</stdout>\n";
  for (const char* escape : {"&#xD800;", "&#57343;", "&#x110000;"})
    CHECK_THROWS_WITH(
        from_nccl_tests_log(header + "<stdout rank=\"0\">a " + escape + "</stdout>\n", "x.log"),
        "x.log: line 3: '" + std::string(escape) +
            "' is not an XML escape (read as mpirun --xml output)");
}

TEST_CASE("real capture: perfgate-collectives under mpirun --xml --display-map") {
  // 2 ranks, all_reduce and alltoall, 3 sizes; only rank 0 prints, one line an element.
  const std::string xml = read_text(kData / "nccl_xml_output.log");
  const std::regex line_element(R"(<stdout rank="0">(.*)&#010;</stdout>)");
  std::string plain;
  std::size_t elements = 0;
  for (const std::string& line : lines_of(xml)) {
    std::smatch m;
    if (!std::regex_match(line, m, line_element)) continue;
    plain += m[1].str() + "\n";
    ++elements;
  }
  // No escape but the newlines: the lines are the text as printed.
  REQUIRE(static_cast<std::size_t>(std::count(xml.begin(), xml.end(), '&')) == elements);
  const Run run = read_results_file(kData / "nccl_xml_output.log");
  CHECK(described(run) == described(from_nccl_tests_log(plain, "plain.log")));
  CHECK(run.results.size() == 2 * 3 * 2 * 3);
  const nlohmann::json& runs = run.metadata["nccl_tests"]["runs"];
  REQUIRE(runs.size() == 2);
  CHECK(runs[0]["operation"] == "all_reduce");
  CHECK(runs[1]["operation"] == "alltoall");
  for (const Result& r : run.results) {
    REQUIRE(r.scale);
    CHECK(r.scale->ranks == 2);
  }
}

TEST_CASE("an mpirun --xml log's faults name the line of the XML") {
  const std::string header = "<mpirun>\n<stdout rank=\"0\">#  size</stdout>\n";
  CHECK_THROWS_WITH(
      from_nccl_tests_log(header + "<stdout rank=\"0\">a &bogus; b</stdout>\n", "x.log"),
      "x.log: line 3: '&bogus;' is not an XML escape (read as mpirun --xml output)");
  CHECK_THROWS_WITH(
      from_nccl_tests_log(header + "<stdout rank=\"0\">a & b&#010;</stdout>\n", "x.log"),
      "x.log: line 3: an '&' without its ';' inside <stdout rank=\"0\"> (read as mpirun --xml "
      "output)");
  CHECK_THROWS_WITH(
      from_nccl_tests_log(header + "\n<stdout rank=\"0\">cut off&#010;\n", "x.log"),
      "x.log: line 4: <stdout rank=\"0\"> without its </stdout> (read as mpirun --xml output)");
  CHECK_THROWS_WITH(from_nccl_tests_log(header + "<stderr rank=\"one\">x</stderr>\n", "x.log"),
                    "x.log: line 3: <stderr> names rank 'one', not a rank number (read as mpirun "
                    "--xml output)");
  CHECK_THROWS_WITH(from_nccl_tests_log(header + "<stdout rank=0>x</stdout>\n", "x.log"),
                    "x.log: line 3: <stdout> has an attribute that cannot be read: 'rank=0' (read "
                    "as mpirun --xml output)");
  CHECK_THROWS_WITH(from_nccl_tests_log(header + "<stdout rank=\"0\">a<b</stdout>\n", "x.log"),
                    Catch::StartsWith("x.log: line 3: a '<' inside <stdout rank=\"0\">"));
  CHECK_THROWS_WITH(
      from_nccl_tests_log("<mpirun>\n<stdout rank=\"0\">hi&#010;</stdout>\n", "x.log"),
      "x.log: no nccl-tests result table (no '# size count type ...' header)");
  // Found by content, then named as what it lacks, not as a format nothing reads.
  CHECK_THROWS_WITH(ingest_text("<mpirun>\n<stdout rank=\"0\">hi&#010;</stdout>\n", "x.log"),
                    Catch::EndsWith("x.log: no nccl-tests result table (no '# size count type "
                                    "...' header)"));
}

TEST_CASE("in an mpirun --xml log, processes that each ran the test alone are named by line") {
  // nccl-tests built without MPI=1: both processes print a one-rank table as rank 0 would.
  std::string one_rank;
  for (const std::string& line : lines_of(read_text(kData / "nccl_single_node.log")))
    if (line.rfind("#  Rank", 0) != 0 || line.find("Rank  0 ") != std::string::npos)
      one_rank += line + "\n";
  std::string xml = "<mpirun>\n";
  std::size_t second_header = 0;  // the XML line of rank 1's table header
  for (const std::string& line : lines_of(one_rank)) {
    for (const char* rank : {"0", "1"}) {
      xml += element(std::string("<stdout rank=\"") + rank + "\">", line + "\n");
      if (second_header == 0 && *rank == '1' && line.find("redop") != std::string::npos)
        second_header = static_cast<std::size_t>(std::count(xml.begin(), xml.end(), '\n'));
    }
  }
  REQUIRE(second_header > 0);
  CHECK_THROWS_WITH(from_nccl_tests_log(xml + "</mpirun>\n", "alone.xml.log"),
                    Catch::StartsWith("alone.xml.log: line " + std::to_string(second_header) +
                                      ": rank 1 printed an nccl-tests table of its own beside "
                                      "rank 0's: the processes each ran"));
}
