// perfgate-collectives' stdout table, read back by the nccl-tests ingester, gives exactly the
// series ids of perfgate-collectives' own document: the two name every case the same way, so
// `perfgate compare nccl-tests.log perfgate-collectives.json` lines them up.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "perfgate/baselines/nccl_tests.hpp"
#include "perfgate/collectives/nccl_table.hpp"
#include "perfgate/collectives/reduce_op.hpp"
#include "perfgate/collectives/result_document.hpp"

using namespace perfgate;
using namespace perfgate::collectives;

namespace {

constexpr int kRoot = 1;
constexpr std::size_t kCount = 256;

// One table of `c` over every datatype and two reduction ops, as perfgate-collectives prints it,
// and the ids its document holds for the same cases.
void table_and_ids(Collective c, std::string& table, std::set<std::string>& ids) {
  const CollectiveInfo& ci = info(c);
  TableHeader header;
  header.program = std::string(ci.perf_name);
  table += format_table_header(header);
  for (DataType dtype : all_datatypes()) {
    for (ReduceOp op : {ReduceOp::sum, ReduceOp::max}) {
      if (!ci.reduces && op != ReduceOp::sum) continue;
      const CaseShape shape{c, dtype, op, kRoot, 2, kCount};
      const std::size_t bytes = kCount * type_size(dtype);
      const PlacementCells cells{12.5, 1.0, 1.5, std::size_t{0}};
      table +=
          format_table_row({bytes, kCount, dtype, ci.reduces ? std::string(op_name(op)) : "none",
                            ci.has_root ? kRoot : -1, cells, cells});
      for (bool in_place : {false, true}) {
        CaseMeasurement m;
        m.backend = "nccl";
        m.shape = shape;
        m.bytes = bytes;
        m.in_place = in_place;
        for (const char* metric : {"time", "algbw", "busbw"}) ids.insert(case_key(m, metric).id());
      }
    }
  }
  table += format_table_footer(0, 1.5, ci.perf_name);
}

}  // namespace

TEST_CASE("every collective, datatype and placement: the table's series ids are the document's") {
  for (Collective c : all_collectives()) {
    INFO(info(c).name);
    std::string table;
    std::set<std::string> document_ids;
    table_and_ids(c, table, document_ids);
    std::set<std::string> table_ids;
    for (const Result& r : baselines::from_nccl_tests_log(table, "table.txt").results)
      table_ids.insert(r.key.id());
    CHECK(table_ids == document_ids);
  }
}
