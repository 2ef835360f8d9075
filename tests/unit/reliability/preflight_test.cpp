// The doctor's checks against captured machines (fixture /proc and /sys trees, nvidia-smi
// replays) and against this machine's real file systems.
#include <algorithm>
#include <filesystem>

#include <catch2/catch.hpp>

#include "perfgate/core/error.hpp"
#include "perfgate/preflight/doctor.hpp"

namespace fs = std::filesystem;
using namespace perfgate;
using namespace perfgate::preflight;

namespace {

const fs::path kData = fs::path(PERFGATE_TEST_DATA) / "reliability";

std::vector<Finding> of_check(const std::vector<Finding>& all, const std::string& check) {
  std::vector<Finding> out;
  std::copy_if(all.begin(), all.end(), std::back_inserter(out),
               [&](const Finding& f) { return f.check == check; });
  return out;
}

bool mentions(const Finding& f, const std::string& text) {
  return f.message.find(text) != std::string::npos;
}

}  // namespace

TEST_CASE("governor: every CPU on 'performance' is info, others are named with their count") {
  const auto tuned = check_cpu_governor(kData / "sysroot_tuned");
  REQUIRE(tuned.size() == 1);
  CHECK(tuned[0].level == Level::info);
  CHECK(mentions(tuned[0], "all 4 CPUs"));

  const auto mixed = check_cpu_governor(kData / "sysroot_powersave");
  REQUIRE(mixed.size() == 2);
  CHECK(mixed[0].level == Level::warning);
  CHECK(mentions(mixed[0], "2 of 4 CPUs use the 'powersave'"));
  CHECK(mentions(mixed[1], "1 of 4 CPUs use the 'schedutil'"));
}

TEST_CASE("governor: a machine without cpufreq (VM, container) is info, not an error") {
  const auto none = check_cpu_governor(kData / "fake_gpu");
  REQUIRE(none.size() == 1);
  CHECK(none[0].level == Level::info);
  CHECK(mentions(none[0], "no CPU frequency governor"));
}

TEST_CASE("load average: compared with the number of CPUs") {
  CHECK(check_load(kData / "sysroot_tuned", 4).at(0).level == Level::info);
  const auto busy = check_load(kData / "sysroot_powersave", 4);
  CHECK(busy.at(0).level == Level::warning);
  CHECK(mentions(busy.at(0), "7.50 on 4 CPUs"));
  CHECK(check_load(kData / "sysroot_powersave", 64).at(0).level == Level::info);
  CHECK(check_load(kData / "fake_gpu", 4).at(0).level == Level::info);  // no /proc/loadavg
}

TEST_CASE("build: debug and sanitizer builds are warnings") {
  CHECK(worst_level(check_build({"GNU 12", "-O2", "Release"})) == Level::info);
  CHECK(worst_level(check_build({"GNU 12", "-O2 -g", "RelWithDebInfo"})) == Level::info);
  CHECK(of_check(check_build({"GNU 12", "-g", "Debug"}), "build.type").at(0).level ==
        Level::warning);
  CHECK(of_check(check_build({"GNU 12", "", ""}), "build.type").at(0).level == Level::warning);
  CHECK(of_check(check_build({"GNU 12", "-fsanitize=address", "Release"}), "build.sanitizers")
            .at(0)
            .level == Level::warning);
}

TEST_CASE("gpu: no nvidia-smi means no GPU, reported as info") {
  const auto f = check_gpu("perfgate-no-such-nvidia-smi");
  REQUIRE(f.size() == 1);
  CHECK(f[0].level == Level::info);
  CHECK(mentions(f[0], "no GPU found"));
}

TEST_CASE("gpu: a healthy idle GPU gives only info findings") {
  const auto f = check_gpu((kData / "fake_gpu/healthy/nvidia-smi").string());
  CHECK(worst_level(f) == Level::info);
  CHECK(mentions(of_check(f, "gpu").at(0), "1 GPU(s) found"));
  CHECK(mentions(of_check(f, "gpu.processes").at(0), "no other process"));
}

TEST_CASE("gpu: busy, throttled, ECC-erroring, MIG, non-persistent GPUs are each named") {
  const auto f = check_gpu((kData / "fake_gpu/troubled/nvidia-smi").string());
  CHECK(worst_level(f) == Level::error);
  const auto ecc = of_check(f, "gpu.ecc");
  REQUIRE(ecc.size() == 1);
  CHECK(ecc[0].level == Level::error);
  CHECK(mentions(ecc[0], "GPU 0 (NVIDIA H200): 3 uncorrected ECC errors"));
  CHECK(of_check(f, "gpu.persistence").at(0).level == Level::warning);
  CHECK(of_check(f, "gpu.mig").at(0).level == Level::warning);
  const auto throttle = of_check(f, "gpu.throttle").at(0);
  CHECK(mentions(throttle, "software power cap"));
  CHECK(mentions(throttle, "hardware thermal slowdown"));
  CHECK(mentions(of_check(f, "gpu.clocks").at(0), "SM clock 1200 MHz is below its base 1980 MHz"));
  const auto procs = of_check(f, "gpu.processes").at(0);
  CHECK(procs.level == Level::warning);
  CHECK(mentions(procs, "2 other process(es)"));
  CHECK(mentions(procs, "python3 (pid 4711, 30120 MiB)"));
  // GPU 1 reports nothing ([N/A] everywhere): no finding invented for it.
  for (const auto& x : f) CHECK_FALSE(mentions(x, "GPU 1 (NVIDIA H200):"));
}

TEST_CASE("gpu: only the GPUs CUDA_VISIBLE_DEVICES leaves this process are checked") {
  const std::string smi = (kData / "fake_gpu/troubled/nvidia-smi").string();
  SECTION("by index: GPU 0's ECC errors, throttling and python3 are another job's") {
    const auto f = check_gpu(smi, "1");
    CHECK(worst_level(f) == Level::warning);  // GPU 1's persistence is on; its process remains
    CHECK(of_check(f, "gpu.ecc").empty());
    CHECK(of_check(f, "gpu.throttle").empty());
    CHECK(mentions(of_check(f, "gpu").at(1), "GPU(s) 0 not checked: CUDA_VISIBLE_DEVICES=1"));
    const auto procs = of_check(f, "gpu.processes").at(0);
    CHECK(mentions(procs, "1 other process(es)"));
    CHECK(mentions(procs, "/usr/bin/train (pid 4712"));
    CHECK_FALSE(mentions(procs, "python3"));
  }
  SECTION("by UUID prefix, as CUDA accepts: GPU 0 and its process are checked, GPU 1 not") {
    const auto f = check_gpu(smi, "GPU-0b5e7a42");
    CHECK(of_check(f, "gpu.ecc").at(0).level == Level::error);
    CHECK(mentions(of_check(f, "gpu").at(1), "GPU(s) 1 not checked"));
    CHECK(
        mentions(of_check(f, "gpu.processes").at(0), "1 other process(es) use the GPUs: python3"));
  }
  SECTION("an entry that names no listed GPU (a MIG instance): every GPU, and why") {
    const auto f = check_gpu(smi, "MIG-4a3b2c1d-aaaa-bbbb-cccc-ddddeeeeffff");
    CHECK(of_check(f, "gpu.ecc").at(0).level == Level::error);
    CHECK(mentions(of_check(f, "gpu").at(1), "is no GPU nvidia-smi lists; every GPU is checked"));
    CHECK(mentions(of_check(f, "gpu.processes").at(0), "2 other process(es)"));
  }
  SECTION("both GPUs: as without the variable") {
    const auto f = check_gpu(smi, "1,0");
    CHECK(of_check(f, "gpu.ecc").size() == 1);
    CHECK(of_check(f, "gpu").size() == 1);
    CHECK(mentions(of_check(f, "gpu.processes").at(0), "2 other process(es)"));
  }
}

TEST_CASE("gpu: nvidia-smi without a driver is a warning that quotes it") {
  const auto f = check_gpu((kData / "fake_gpu/no_driver/nvidia-smi").string());
  REQUIRE(f.size() == 1);
  CHECK(f[0].level == Level::warning);
  CHECK(mentions(f[0], "exit 9"));
  CHECK(mentions(f[0], "couldn't communicate with the NVIDIA driver"));
}

TEST_CASE("store: network file systems are recognised by their statfs magic") {
  CHECK(network_filesystem_name(0x6969) == "NFS");
  CHECK(network_filesystem_name(0xFF534D42) == "CIFS");
  CHECK(network_filesystem_name(0xFE534D42) == "SMB2");
  CHECK(network_filesystem_name(0x0BD00BD0) == "Lustre");
  CHECK(network_filesystem_name(0x47504653) == "GPFS");
  CHECK(network_filesystem_name(0x01021997) == "9p");
  CHECK(network_filesystem_name(0x65735546) == "FUSE");
  CHECK_FALSE(network_filesystem_name(0xEF53));      // ext4
  CHECK_FALSE(network_filesystem_name(0x58465342));  // xfs
  CHECK_FALSE(network_filesystem_name(0x01021994));  // tmpfs
}

TEST_CASE("store: a local folder passes, free space is reported against the thresholds") {
  const fs::path store = fs::temp_directory_path() / "perfgate-doctor-test" / "sub" / "x.db";
  const auto ok = check_store_location(store, 0, 0);  // folder not created yet: nearest parent
  CHECK(worst_level(ok) == Level::info);
  CHECK(of_check(ok, "store.free_space").size() == 1);
  const auto full = check_store_location(store, UINT64_MAX, UINT64_MAX);
  CHECK(of_check(full, "store.free_space").at(0).level == Level::error);
  const auto low = check_store_location(store, UINT64_MAX, 0);
  CHECK(of_check(low, "store.free_space").at(0).level == Level::warning);
  CHECK_NOTHROW(require_local_store(store));
}

TEST_CASE("findings: JSON round trip, worst level and the run's metadata") {
  const std::vector<Finding> f = {{"a", Level::info, "x"}, {"b", Level::warning, "y \"q\""}};
  CHECK(findings_from_json(to_json(f)) == f);
  CHECK(worst_level(f) == Level::warning);
  CHECK(worst_level({}) == Level::info);
  CHECK_THROWS_AS(
      findings_from_json(nlohmann::json::parse(R"([{"check":"a","level":"bad","message":""}])")),
      InputError);
  CHECK_THROWS_AS(findings_from_json(nlohmann::json::parse(R"([{"check":1}])")), InputError);

  Run run;
  DoctorOptions options;
  options.sysroot = kData / "sysroot_powersave";
  options.nvidia_smi = (kData / "fake_gpu/troubled/nvidia-smi").string();
  options.cuda_visible_devices = "";  // every GPU, whatever this test's environment says
  options.cpu_count = 4;
  record_doctor_findings(run, options);
  const auto recorded = findings_from_json(run.metadata.at("doctor"));
  CHECK(worst_level(recorded) == Level::error);
  CHECK_FALSE(of_check(recorded, "cpu.governor").empty());
  CHECK_FALSE(of_check(recorded, "gpu.ecc").empty());
  CHECK(of_check(recorded, "store.filesystem").empty());  // no store given
}
