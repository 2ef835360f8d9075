// perfgate-microbench: measures ONE case in its own process, so that a crash or a hang costs
// only that case (`perfgate run` starts one per case with a time limit and reads the result).
//   perfgate-microbench --case-json '<CaseRequest JSON>' --output RESULT.json
// The result file is a result document holding one result; it is written only when the case
// ran to an outcome (ok, error, skipped), atomically.
//   perfgate-microbench --ceilings BACKEND --output CEILINGS.json
// measures the backend's ceilings (ceilings.hpp) once, for `perfgate run`'s metadata.
#include <iostream>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "perfgate/core/document.hpp"
#include "perfgate/core/error.hpp"
#include "perfgate/core/exit_codes.hpp"
#include "perfgate/core/identity.hpp"
#include "perfgate/microbench/ceilings.hpp"
#include "perfgate/microbench/execute.hpp"

int main(int argc, char** argv) {
  using namespace perfgate;
  CLI::App app{"perfgate-microbench: measures one microbenchmark case (started by perfgate run)"};
  std::string case_json, ceilings_backend, output;
  auto* one_case = app.add_option("--case-json", case_json, "the case request, as JSON");
  auto* ceilings = app.add_option("--ceilings", ceilings_backend,
                                  "measure this backend's ceilings instead of a case");
  one_case->excludes(ceilings);
  app.add_option("--output", output, "where to write the result document")->required();
  try {
    app.parse(argc, argv);
    if (case_json.empty() && ceilings_backend.empty())
      throw CLI::RequiredError("--case-json or --ceilings");
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    if (!ceilings_backend.empty()) {
      const auto& probes = microbench::Registry::instance().ceiling_probes();
      const auto probe = probes.find(ceilings_backend);
      if (probe == probes.end())
        throw InputError(
            fmt::format("--ceilings: backend '{}' measures no ceilings here", ceilings_backend));
      write_json_file_atomic(output, microbench::to_json(probe->second()));
      return exit_code::pass;
    }
    const auto request = microbench::case_request_from_json(
        parse_json_text(case_json, "--case-json"), "--case-json");
    Run run;
    run.uuid = new_uuid();
    run.started_at = utc_now_iso8601();
    run.results.push_back(microbench::execute_case(request));
    run.ended_at = utc_now_iso8601();
    write_document_file(output, run);
    return exit_code::pass;
  } catch (const std::exception& e) {
    std::cerr << "perfgate-microbench: " << e.what() << "\n";
    return exit_code::usage_or_tool_error;
  }
}
