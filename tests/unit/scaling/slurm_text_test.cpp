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
      "srun: launching StepId=7.0 on host n1, 2 tasks: 0-1\n"
      "srun: launching StepId=7.0 on host n2, 2 tasks: 2,3\n";
  CHECK(detail::step_id_from_srun_log(log) == "7.0");
  CHECK(detail::nodelist_from_srun_log(log) == "n[1-2]");
  const auto hosts = detail::rank_hosts_from_srun_log(log);
  CHECK(hosts == std::map<int, std::string>{{0, "n1"}, {1, "n1"}, {2, "n2"}, {3, "n2"}});
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
  CHECK(s.find("#SBATCH --gpus-per-node=8\n") != std::string::npos);
  CHECK(s.find("export NCCL_DEBUG='it'\\''s'\n") != std::string::npos);
  CHECK(s.find("'/w/a b.json' '$(rm -rf /)'") != std::string::npos);
  CHECK(s.find("'--mpi=pmix'") != std::string::npos);
  in.env = {{"BAD NAME", "x"}};
  CHECK_THROWS_AS(render_batch_script(default_batch_template(), in, "built-in"), InputError);
  CHECK_THROWS_WITH(render_batch_script("#!/bin/sh\n@NOPE@\n", BatchScriptInput{}, "t.sbatch"),
                    "t.sbatch: unknown placeholder @NOPE@");
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
