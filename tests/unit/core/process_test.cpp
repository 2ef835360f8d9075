#include <catch2/catch.hpp>

#include "perfgate/core/error.hpp"
#include "perfgate/core/process.hpp"

using namespace perfgate;

TEST_CASE("child processes: output, exit codes, signals, timeouts") {
  auto r = run_process({"sh", "-c", "echo out; echo err >&2; exit 3"});
  CHECK(r.out == "out\n");
  CHECK(r.err == "err\n");
  CHECK(r.err_tail(100) == "err");  // the trailing newline dropped for a one-line message
  CHECK(r.exit_code == 3);
  CHECK_FALSE(r.ok());
  r = run_process({"sh", "-c", "kill -SEGV $$"});
  CHECK(r.signal == 11);
  ProcessOptions opts;
  opts.timeout = std::chrono::milliseconds(200);
  r = run_process({"sleep", "30"}, opts);
  CHECK(r.timed_out);
  // Arguments are passed as they are, never through a shell.
  r = run_process({"echo", "$(touch /tmp/perfgate-never)", ";", "rm"});
  CHECK(r.out == "$(touch /tmp/perfgate-never) ; rm\n");
  CHECK_THROWS_AS(run_process({"perfgate-no-such-program"}), ToolError);
}

TEST_CASE("the end of a child's stderr, for a message") {
  ProcessResult r;
  r.err = "first line\nlast line \n\n";
  CHECK(r.err_tail(100) == "first line\nlast line");
  CHECK(r.err_tail(12) == "last line");  // the last 12 characters, then trimmed
  CHECK(r.err_tail(0).empty());
  r.err = "";
  CHECK(r.err_tail(10).empty());
}
