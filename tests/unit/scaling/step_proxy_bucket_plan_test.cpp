#include <array>

#include <catch2/catch.hpp>

#include "bucket_plan.hpp"
#include "perfgate/core/error.hpp"

using perfgate::step_proxy::Bucket;
using perfgate::step_proxy::plan_buckets;

namespace {

// Every gradient is reduced exactly once, buckets are contiguous from the top down, and only the
// last one may be short.
void check_cover(const std::vector<Bucket>& plan, int layers, long long per_layer,
                 long long bucket) {
  long long top = layers * per_layer;
  for (std::size_t i = 0; i < plan.size(); ++i) {
    CHECK(plan[i].offset + plan[i].count == top);
    CHECK(plan[i].count > 0);
    if (i + 1 < plan.size()) CHECK(plan[i].count == bucket);
    if (i > 0) CHECK(plan[i].after_layer <= plan[i - 1].after_layer);
    // A bucket is launched only once all of its gradients are final.
    CHECK(plan[i].offset >= plan[i].after_layer * per_layer);
    top = plan[i].offset;
  }
  CHECK(top == 0);
}

}  // namespace

TEST_CASE("plan_buckets takes full buckets from the top of the ready span", "[step_proxy]") {
  const std::vector<Bucket> plan = plan_buckets(3, 10, 4);
  const std::vector<std::array<long long, 3>> want = {
      {2, 26, 4}, {2, 22, 4}, {1, 18, 4}, {1, 14, 4}, {1, 10, 4}, {0, 6, 4}, {0, 2, 4}, {0, 0, 2}};
  REQUIRE(plan.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    INFO("bucket " << i);
    CHECK(plan[i].after_layer == want[i][0]);
    CHECK(plan[i].offset == want[i][1]);
    CHECK(plan[i].count == want[i][2]);
  }
  check_cover(plan, 3, 10, 4);
}

TEST_CASE("plan_buckets covers every gradient once for any bucket size", "[step_proxy]") {
  for (long long bucket : {1LL, 3LL, 7LL, 12LL, 13LL, 36LL, 1000LL}) {
    INFO("bucket " << bucket);
    check_cover(plan_buckets(3, 12, bucket), 3, 12, bucket);
  }
  const std::vector<Bucket> one = plan_buckets(2, 5, 1 << 20);
  REQUIRE(one.size() == 1);
  CHECK(one[0].after_layer == 0);
  CHECK(one[0].count == 10);
}

TEST_CASE("plan_buckets refuses sizes that are not positive", "[step_proxy]") {
  CHECK_THROWS_AS(plan_buckets(0, 10, 4), perfgate::InputError);
  CHECK_THROWS_AS(plan_buckets(2, 10, 0), perfgate::InputError);
}
