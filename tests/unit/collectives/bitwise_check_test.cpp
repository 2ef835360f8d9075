// The bitwise repeatability check: differing elements and bits, the first difference, the ranks'
// differences combined, and nccl-tests' lines and columns for it.
#include <catch2/catch.hpp>

#include <cstddef>
#include <vector>

#include "perfgate/collectives/bitwise_check.hpp"
#include "perfgate/collectives/nccl_table.hpp"
#include "perfgate/collectives/nccl_tests_json.hpp"

using namespace perfgate::collectives;

namespace {
std::vector<std::byte> bytes(std::size_t n) {
  std::vector<std::byte> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = std::byte(i * 37 % 251);
  return v;
}
}  // namespace

TEST_CASE("equal outputs differ in nothing") {
  const std::vector<std::byte> reference = bytes(1 << 20);
  BitwiseDifference d;
  add_differences(reference, reference, 4, 0, 1, d);
  CHECK_FALSE(d.any());
  CHECK(d.elements == 0);
  CHECK(d.first_repeat == -1);
}

TEST_CASE("differing bits are counted per element, and the first is named") {
  const std::vector<std::byte> reference = bytes(1 << 20);  // more than one compared block
  std::vector<std::byte> now = reference;
  // Element 70000 (4-byte elements): bit 3 of its byte 1 and its byte 3's three low bits.
  now[70000 * 4 + 1] ^= std::byte{0x08};
  now[70000 * 4 + 3] ^= std::byte{0x07};
  now[200000 * 4] ^= std::byte{0x80};  // a later element, one bit
  BitwiseDifference d;
  add_differences(reference, now, 4, 0, 2, d);
  CHECK(d.elements == 2);
  CHECK(d.bits == 5);
  CHECK(d.first_repeat == 2);
  CHECK(d.first_element == 70000);
  CHECK(d.first_bit == 11);  // byte 1, bit 3
  // A later repeat adds to the counts and keeps the first difference; a piece starting at
  // element 100 names elements from there.
  add_differences(std::span(reference).subspan(400, 8), std::span(now).subspan(400, 8), 4, 100, 3,
                  d);
  CHECK(d.elements == 2);
  std::vector<std::byte> piece(reference.begin() + 400, reference.begin() + 408);
  piece[5] ^= std::byte{0x01};
  BitwiseDifference later;
  add_differences(std::span(reference).subspan(400, 8), piece, 4, 100, 3, later);
  CHECK(later.first_element == 101);
  CHECK(later.first_bit == 8);
  CHECK(later.first_repeat == 3);
}

TEST_CASE("the ranks' differences: counts summed, the first by repeat, then rank") {
  BitwiseDifference none, r1, r2;
  r1 = {3, 4, 2, -1, 17, 0};
  r2 = {1, 1, 1, -1, 5, 6};
  const BitwiseDifference all = combine_ranks({none, r1, r2});
  CHECK(all.elements == 4);
  CHECK(all.bits == 5);
  CHECK(all.first_repeat == 1);
  CHECK(all.first_rank == 2);
  CHECK(all.first_element == 5);
  CHECK(all.first_bit == 6);
  const BitwiseDifference tie = combine_ranks({r2, r2});
  CHECK(tie.first_rank == 0);  // the lower rank of one repeat
  CHECK(from_numbers(to_numbers(all)).first_rank == 2);
  CHECK_FALSE(combine_ranks({none, none}).any());
}

TEST_CASE("nccl-tests' bitwise lines") {
  CHECK(bitwise_header_line(4) ==
        "# Bitwise Repeatability: 4 comparisons after one reference run \n");
  CHECK(bitwise_detail_line({64, 64, 2, 1, 4093, 0}, true) ==
        "# Bitwise mismatch (in-place): first repeat 2, rank 1, element 4093, bit 0; 64 elements "
        "and 64 bits differ\n");
  CHECK(bitwise_footer_line(1) == "# Bitwise mismatches   : 1 FAILED\n");
  CHECK(bitwise_footer_line(0) == "# Bitwise mismatches   : 0 OK\n");
}

TEST_CASE("with the check, the table has #bitdiff after each #wrong, in nccl-tests' widths") {
  TableHeader h;
  h.program = "all_reduce_perf";
  h.bitwise_repeats = 4;
  const std::string header = format_table_header(h);
  CHECK(header.find("# Bitwise Repeatability: 4 comparisons after one reference run \n#\n") !=
        std::string::npos);
  CHECK(header.find("               out-of-place + bitwise                           in-place + "
                    "bitwise          \n") != std::string::npos);
  CHECK(header.find("  #wrong  #bitdiff     time   algbw   busbw  #wrong  #bitdiff \n") !=
        std::string::npos);
  TableRow row{1024, 256, DataType::f32, "sum", -1, {41.22, 0.02, 0.04, 0}, {40.17, 0.03, 0.05, 0}};
  row.out_of_place.bitwise = BitwiseDifference{};
  row.in_place.bitwise = BitwiseDifference{64, 64, 2, 1, 4093, 0};
  CHECK(format_table_row(row, false, true) ==
        "        1024           256     float     sum      -1    41.22    0.02    0.04       0    "
        "     0    40.17    0.03    0.05       0        64\n");
  row.in_place.bitwise.reset();  // not compared
  CHECK(format_table_row(row, false, true).ends_with("0.05       0       N/A\n"));
  row.out_of_place.measured = false;  // -O 0: blank, #bitdiff's width too
  CHECK(format_table_row(row, false, true).find("      -1" + std::string(42, ' ') + "    40.17") !=
        std::string::npos);
  CHECK(format_table_footer(0, 1.5, "x", std::nullopt, 1)
            .find("# Out of bounds values : 0 OK\n# Bitwise mismatches   : 1 FAILED\n# Avg bus") !=
        std::string::npos);
  h.per_iteration = true;
  h.iteration_timing = "host clock";
  CHECK(format_table_header(h).find("  #wrong  #bitdiff    i_min") != std::string::npos);
}

TEST_CASE("with the check, the JSON has bitwise_repeats, each placement's bitwise, the footer") {
  NcclTestsJsonRun run;
  run.header.program = "all_reduce_perf";
  run.header.bitwise_repeats = 4;
  TableRow row{1024, 256, DataType::f32, "sum", -1, {41.22, 0.02, 0.04, 0}, {40.17, 0.03, 0.05, 0}};
  row.out_of_place.bitwise = BitwiseDifference{};
  row.in_place.bitwise = BitwiseDifference{2, 3, 1, 0, 17, 4};
  run.rows = {row};
  run.bitwise_mismatches = 1;
  const nlohmann::ordered_json j = nccl_tests_json(run);
  CHECK(j["config"]["bitwise_repeats"] == 4);
  const nlohmann::ordered_json& same = j["results"][0]["out_of_place"]["bitwise"];
  CHECK(same["repeats"] == 4);
  CHECK(same["different_bits"] == 0);
  CHECK(same["first_repeat"].is_null());
  const nlohmann::ordered_json& differed = j["results"][0]["in_place"]["bitwise"];
  CHECK(differed["different_elements"] == 2);
  CHECK(differed["first_element"] == 17);
  CHECK(j["bitwise_mismatches"]["count"] == 1);
  CHECK(j["bitwise_mismatches"]["okay"] == "false");
  std::vector<std::string> keys;
  for (const auto& item : j.items()) keys.push_back(item.key());
  CHECK(keys[9] == "bitwise_mismatches");  // after out_of_bounds, as nccl-tests writes it
  run.header.bitwise_repeats = 0;
  CHECK_FALSE(nccl_tests_json(run).contains("bitwise_mismatches"));
  CHECK_FALSE(nccl_tests_json(run)["config"].contains("bitwise_repeats"));
}

TEST_CASE("a later cycle's differences: counts summed, the first difference the earliest cycle's") {
  BitwiseDifference all;  // the first cycle differed nowhere
  const BitwiseDifference second{2, 3, 4, 1, 10, 7}, third{1, 1, 1, 0, 2, 0};
  add_later_run(all, second);
  CHECK(all.first_repeat == 4);
  add_later_run(all, third);  // an earlier repeat, but of a later cycle
  CHECK(all.elements == 3);
  CHECK(all.bits == 4);
  CHECK(all.first_repeat == 4);
  CHECK(all.first_rank == 1);
  CHECK(all.first_element == 10);
  CHECK(all.first_bit == 7);
}
