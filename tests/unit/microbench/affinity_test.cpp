#include <sched.h>

#include <catch2/catch.hpp>
#include <vector>

#include "perfgate/microbench/affinity.hpp"

using perfgate::microbench::allowed_cpus;
using perfgate::microbench::cpu_list;

TEST_CASE("a CPU list writes runs of consecutive CPUs as ranges") {
  CHECK(cpu_list({}).empty());
  CHECK(cpu_list({3}) == "3");
  CHECK(cpu_list({0, 1}) == "0-1");
  CHECK(cpu_list({0, 1, 2, 5, 7, 8}) == "0-2,5,7-8");
  CHECK(cpu_list({1, 3, 5}) == "1,3,5");
  CHECK(cpu_list({62, 63, 64, 65, 127}) == "62-65,127");
}

TEST_CASE("the allowed CPUs follow this process's affinity mask") {
  cpu_set_t before;
  CPU_ZERO(&before);
  REQUIRE(sched_getaffinity(0, sizeof before, &before) == 0);
  int first = -1;
  for (int cpu = 0; cpu < CPU_SETSIZE && first < 0; ++cpu)
    if (CPU_ISSET(cpu, &before)) first = cpu;
  REQUIRE(first >= 0);

  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(first, &one);
  REQUIRE(sched_setaffinity(0, sizeof one, &one) == 0);
  const std::string pinned = allowed_cpus();
  REQUIRE(sched_setaffinity(0, sizeof before, &before) == 0);
  CHECK(pinned == std::to_string(first));
  std::vector<int> all;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &before)) all.push_back(cpu);
  CHECK(allowed_cpus() == cpu_list(all));  // the whole mask again, once restored
}
