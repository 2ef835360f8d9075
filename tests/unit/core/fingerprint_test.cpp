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
