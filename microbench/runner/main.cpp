// perfgate-microbench: measures ONE case in its own process, so that a crash or a hang costs
// only that case (`perfgate run` starts one per case with a time limit and reads the result).
//   perfgate-microbench --case-json '<CaseRequest JSON>' --output RESULT.json
// The result file is a result document holding one result; it is written only when the case
// ran to an outcome (ok, error, skipped), atomically.
#include <iostream>

#include <CLI/CLI.hpp>

#include "perfgate/core/document.hpp"
#include "perfgate/core/error.hpp"
#include "perfgate/core/exit_codes.hpp"
#include "perfgate/core/identity.hpp"
#include "perfgate/microbench/execute.hpp"

int main(int argc, char** argv) {
  using namespace perfgate;
  CLI::App app{"perfgate-microbench: measures one microbenchmark case (started by perfgate run)"};
  std::string case_json, output;
  app.add_option("--case-json", case_json, "the case request, as JSON")->required();
  app.add_option("--output", output, "where to write the result document")->required();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
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
