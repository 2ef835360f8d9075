#include <catch2/catch.hpp>

#include "perfgate/collectives/stragglers.hpp"

using namespace perfgate::collectives;

TEST_CASE("own time removes the wait for the latest arrival") {
  // Rank 2 sleeps 1000 us before each operation; everyone's wall time includes that sleep.
  const std::vector<RankTiming> ranks{{1010, 0}, {1012, 0}, {1011, 1000}, {1009, 0}};
  const std::vector<double> own = own_times(ranks);
  CHECK(own[0] == Approx(10));
  CHECK(own[1] == Approx(12));
  CHECK(own[2] == Approx(1011));
  CHECK(own[3] == Approx(9));
}

TEST_CASE("own time stays within the rank's own pre-collective and total times") {
  // Rank 0 did not wait (a broadcast root returns early): its own time is not negative.
  const std::vector<double> own = own_times(std::vector<RankTiming>{{5, 0}, {1005, 1000}});
  CHECK(own[0] == 0);
  CHECK(own[1] == Approx(1005));
}

TEST_CASE("stragglers are ranks beyond the median by the margin and the floor") {
  const std::vector<double> times{10, 12, 1011, 9};
  const auto found = find_stragglers(times, 0.10);
  REQUIRE(found.size() == 1);
  CHECK(found[0].rank == 2);
  CHECK(found[0].median_us == Approx(11));
  CHECK(found[0].excess == Approx(1011.0 / 11 - 1));
  CHECK(find_stragglers(times, 100.0).empty());
  CHECK(find_stragglers(std::vector<double>{1.0, 1.5}, 0.10, 20).empty());  // noise under the floor
  CHECK(find_stragglers(std::vector<double>{1.0, 1.5}, 0.10, 0).size() == 1);
  CHECK(find_stragglers(std::vector<double>{5}, 0.10).empty());
}

TEST_CASE("median of odd and even counts") {
  CHECK(median(std::vector<double>{3, 1, 2}) == 2);
  CHECK(median(std::vector<double>{4, 1, 2, 3}) == 2.5);
}
