#include <catch2/catch.hpp>

#include "perfgate/core/fingerprint.hpp"

using namespace perfgate;

TEST_CASE("the fingerprint digest depends on comparable keys only, not their insertion order") {
  Fingerprint a, b;
  a.comparable["cpu.model"] = "X";
  a.comparable["gpu.model"] = "H200";
  b.comparable["gpu.model"] = "H200";
  b.comparable["cpu.model"] = "X";
  b.info["host"] = "elsewhere";
  CHECK(a.digest() == b.digest());
  CHECK(a.digest().size() == 16);
  // Pinned (FNV-1a 64 of {"k":"v"}, computed independently): stores keep their digests.
  Fingerprint pinned;
  pinned.comparable["k"] = "v";
  CHECK(pinned.digest() == "c60340ed39800210");
  b.comparable["gpu.model"] = "H100";
  CHECK(a.digest() != b.digest());
  CHECK(differing_keys(a, b) == std::vector<std::string>{"gpu.model"});
  CHECK(differing_keys(a, b, {"gpu.model"}).empty());
}

TEST_CASE("collecting the fingerprint of this machine names CPU and build") {
  const auto fp = collect_fingerprint(this_build());
  CHECK_FALSE(fp.comparable.at("cpu.model").empty());
  CHECK(std::stoi(fp.comparable.at("cpu.cores")) >= 1);
  CHECK_FALSE(fp.comparable.at("build.compiler").empty());
  CHECK(fp.info.count("host") == 1);
}

namespace {
// nvidia-smi --query-gpu=index,uuid,pci.bus_id,name,memory.total,driver_version,
// mig.mode.current,ecc.mode.current --format=csv,noheader on a node of four H200s (the UUIDs
// and bus ids shortened in form, not in layout).
const char* kFourGpus =
    "0, GPU-1a2b3c4d-0000-1111-2222-333344445555, 00000000:18:00.0, NVIDIA H200, 143771 MiB, "
    "580.159.04, Disabled, Enabled\n"
    "1, GPU-9f8e7d6c-0000-1111-2222-333344445555, 00000000:2A:00.0, NVIDIA H200, 143771 MiB, "
    "580.159.04, Disabled, Enabled\n"
    "2, GPU-5a5a5a5a-0000-1111-2222-333344445555, 00000000:3A:00.0, NVIDIA H200, 143771 MiB, "
    "580.159.04, Enabled, Enabled\n"
    "3, GPU-77777777-0000-1111-2222-333344445555, 00000000:5D:00.0, NVIDIA H200, 143771 MiB, "
    "580.159.04, Disabled, Disabled\n";
}  // namespace

TEST_CASE("the GPU keys describe the GPU that CUDA's device 0 is") {
  SECTION("nothing hidden: the first GPU") {
    const auto fp = gpu_fingerprint(kFourGpus, "");
    CHECK(fp.comparable == std::map<std::string, std::string>{{"gpu.count", "4"},
                                                              {"gpu.driver", "580.159.04"},
                                                              {"gpu.ecc", "Enabled"},
                                                              {"gpu.memory", "143771 MiB"},
                                                              {"gpu.mig", "Disabled"},
                                                              {"gpu.model", "NVIDIA H200"}});
    CHECK(fp.info.at("gpu.index") == "0");
    CHECK(fp.info.at("gpu.pci_bus_id") == "00000000:18:00.0");
    CHECK(fp.info.count("gpu.visible_devices") == 0);
  }
  SECTION("by index: the first entry of CUDA_VISIBLE_DEVICES") {
    const auto fp = gpu_fingerprint(kFourGpus, "3,1");
    CHECK(fp.info.at("gpu.index") == "3");
    CHECK(fp.info.at("gpu.uuid") == "GPU-77777777-0000-1111-2222-333344445555");
    CHECK(fp.comparable.at("gpu.ecc") == "Disabled");  // GPU 3's, not GPU 0's
    CHECK(fp.info.at("gpu.visible_devices") == "3,1");
  }
  SECTION("by UUID, or a prefix of one as CUDA accepts") {
    CHECK(gpu_fingerprint(kFourGpus, "GPU-5a5a5a5a-0000-1111-2222-333344445555")
              .comparable.at("gpu.mig") == "Enabled");
    CHECK(gpu_fingerprint(kFourGpus, "GPU-9f8e").info.at("gpu.pci_bus_id") == "00000000:2A:00.0");
  }
  SECTION("an entry nvidia-smi does not list (a MIG instance): the first GPU") {
    CHECK(gpu_fingerprint(kFourGpus, "MIG-0d9a1b2c-aaaa-bbbb-cccc-ddddeeeeffff")
              .info.at("gpu.index") == "0");
    CHECK(gpu_fingerprint(kFourGpus, "7").info.at("gpu.index") == "0");
  }
  SECTION("no GPU lines, or lines of another query: no keys") {
    CHECK(gpu_fingerprint("", "").comparable.empty());
    CHECK(gpu_fingerprint("NVIDIA H200, 143771 MiB, 580.159.04\n", "").comparable.empty());
    CHECK(gpu_fingerprint("No devices were found\n", "0").info.empty());
  }
}
