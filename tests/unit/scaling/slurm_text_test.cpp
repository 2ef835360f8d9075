#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "../../../scaling/src/slurm_text.hpp"
#include "perfgate/core/error.hpp"
#include "perfgate/scaling/batch_script.hpp"

using namespace perfgate;
using namespace perfgate::scaling;

TEST_CASE("the srun MPI plugin prefers pmix, then pmi2") {
  CHECK(detail::choose_mpi_plugin("MPI plugin types are...\n\tpmix\n\tnone\n\tpmi2\n") == "pmix");
  CHECK(detail::choose_mpi_plugin("MPI plugin types are...\n\tnone\n\tpmi2\n") == "pmi2");
  CHECK(detail::choose_mpi_plugin("MPI plugin types are...\n\tnone\n") == "none");
}

TEST_CASE("srun -v output gives the step, node list and rank hosts") {
  const std::string log =
      "srun: jobid 7: nodes(2):`n[1-2]', cpu counts: 1(x2)\n"
      "srun: launching StepId=7.0 on host n1, 2 tasks: [0-1]\n"
      "srun: launching StepId=7.0 on host n2, 2 tasks: [2,3]\n";
  CHECK(detail::step_id_from_srun_log(log) == "7.0");
  CHECK(detail::nodelist_from_srun_log(log) == "n[1-2]");
  const auto hosts = detail::rank_hosts_from_srun_log(log, 4);
  CHECK(hosts == std::map<int, std::string>{{0, "n1"}, {1, "n1"}, {2, "n2"}, {3, "n2"}});
}

TEST_CASE("rank hosts come from what srun -v of slurm-wlm 22.05 really prints") {
  // Captured from `srun -v -N2 -n4` and `srun -v -N2 -n6 -m cyclic` on the local test cluster:
  // Slurm brackets a task list of more than one ("[0-2]", "[0,2,4-5]"), and until 2026-12-01
  // perfgate read only bare lists, so a node running several ranks was never named.
  const std::string block =
      "srun: jobid 62: nodes(2):`n[1-2]', cpu counts: 3(x1),1(x1)\n"
      "srun: launch/slurm: launch_p_step_launch: CpuBindType=(null type)\n"
      "srun: launching StepId=62.0 on host n1, 3 tasks: [0-2]\n"
      "srun: launching StepId=62.0 on host n2, 1 tasks: 3\n";
  CHECK(detail::rank_hosts_from_srun_log(block, 4) ==
        std::map<int, std::string>{{0, "n1"}, {1, "n1"}, {2, "n1"}, {3, "n2"}});
  const std::string cyclic =
      "srun: launching StepId=63.0 on host n1, 4 tasks: [0,2,4-5]\n"
      "srun: launching StepId=63.0 on host n2, 2 tasks: [1,3]\n";
  CHECK(
      detail::rank_hosts_from_srun_log(cyclic, 6) ==
      std::map<int, std::string>{{0, "n1"}, {1, "n2"}, {2, "n1"}, {3, "n2"}, {4, "n1"}, {5, "n1"}});
}

TEST_CASE("srun -v output shared with the workload's own lines is read without trusting them") {
  // A 200 000-character line after each marker once overflowed the stack inside std::regex.
  const std::string junk(200000, 'x');
  const std::string log = "nodes(1):`" + junk + "\nlaunching StepId=" + junk + "\nStepId=" + junk +
                          "\nsrun: jobid 9: nodes(1):`n7', cpu counts: 2(x1)\n"
                          "srun: launching StepId=9.0 on host n7, 2 tasks: 0-1\n";
  CHECK(detail::step_id_from_srun_log(log) == "9.0");
  CHECK(detail::nodelist_from_srun_log(log) == "n7");
  CHECK(detail::rank_hosts_from_srun_log(log, 2) ==
        std::map<int, std::string>{{0, "n7"}, {1, "n7"}});

  // Ranges that are not ranks of this point are passed over, and never expanded: the last
  // line once meant a loop over two billion ranks.
  const std::string odd =
      "launching StepId=3.0 on host a, 1 tasks: -5,,3-,7-2,1\n"
      "launching StepId=3.0 on host b, 1 tasks: 99999999999,2\n"
      "launching StepId=3.0 on host c, 1 tasks: 3-2147483647\n";
  CHECK(detail::rank_hosts_from_srun_log(odd, 4) ==
        std::map<int, std::string>{{1, "a"}, {2, "b"}, {3, "c"}});
  CHECK(detail::rank_hosts_from_srun_log(odd, 0).empty());
}

TEST_CASE("scontrol fields are read by whole name") {
  const std::string line =
      "JobId=5 JobName=x ReqNodeList=(null) NodeList=n[1-2] JobState=COMPLETED ExitCode=0:0";
  CHECK(detail::scontrol_field(line, "NodeList") == "n[1-2]");
  CHECK(detail::scontrol_field(line, "JobState") == "COMPLETED");
  CHECK(detail::scontrol_field(line, "Missing").empty());
}

TEST_CASE("batch scripts quote every argument") {
  BatchScriptInput in;
  in.job_name = "perfgate-N2xR1";
  in.point = {2, 1, 8};
  in.log_path = "/w/slurm-%j.out";
  in.time_limit = "00:05:00";
  in.mpi = "pmix";
  in.env = {{"NCCL_DEBUG", "it's"}};
  in.program = {"/bin/prog", "--output", "/w/a b.json", "$(rm -rf /)"};
  const std::string s = render_batch_script(default_batch_template(), in, "built-in");
  CHECK(s.find("#SBATCH --nodes=2\n") != std::string::npos);
  CHECK(s.find("#SBATCH --exclusive\n") != std::string::npos);
  CHECK(s.find("#SBATCH --gpus-per-node=8\n") != std::string::npos);
  CHECK(s.find("export NCCL_DEBUG='it'\\''s'\n") != std::string::npos);
  CHECK(s.find("'/w/a b.json' '$(rm -rf /)'") != std::string::npos);
  CHECK(s.find("'--mpi=pmix'") != std::string::npos);
  in.env = {{"BAD NAME", "x"}};
  CHECK_THROWS_AS(render_batch_script(default_batch_template(), in, "built-in"), InputError);
  CHECK_THROWS_WITH(render_batch_script("#!/bin/sh\n@NOPE@\n", BatchScriptInput{}, "t.sbatch"),
                    "t.sbatch: unknown placeholder @NOPE@");
  for (const char* bad : {"", "1ST", "A-B", "A=B", "\xc3\xa9T\xc3\xa9"}) {
    in.env = {{bad, "x"}};
    CHECK_THROWS_AS(render_batch_script(default_batch_template(), in, "built-in"), InputError);
  }
  in.env = {{"_OK_1", "x"}};
  CHECK(render_batch_script(default_batch_template(), in, "built-in").find("export _OK_1='x'") !=
        std::string::npos);
  // Names of any length are checked without std::regex, which overflowed the stack on them.
  const std::string long_name(200000, 'A');
  in.env = {{long_name, "x"}};
  CHECK(render_batch_script("@EXPORTS@", in, "t").size() > long_name.size());
  CHECK_THROWS_WITH(render_batch_script("x@" + long_name + "@", BatchScriptInput{}, "t"),
                    Catch::StartsWith("t: unknown placeholder @AAAA"));
  CHECK(render_batch_script("user@host a@b", BatchScriptInput{}, "t") == "user@host a@b");
}

TEST_CASE("the shipped sbatch template renders") {
  std::ifstream f(std::string(PERFGATE_SOURCE_DIR) + "/scripts/slurm/sweep-point.sbatch");
  std::stringstream text;
  text << f.rdbuf();
  BatchScriptInput in;
  in.point = {1, 8, 8};
  in.program = {"prog"};
  const std::string s = render_batch_script(text.str(), in, "sweep-point.sbatch");
  CHECK(s.find("srun ") != std::string::npos);
  CHECK(s.find('@') == std::string::npos);
}
