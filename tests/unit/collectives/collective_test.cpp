#include <catch2/catch.hpp>

#include "perfgate/collectives/collective.hpp"
#include "perfgate/core/error.hpp"

using namespace perfgate::collectives;

TEST_CASE("busbw factors follow nccl-tests") {
  CHECK(busbw_factor(Collective::all_reduce, 4) == Approx(1.5));
  CHECK(busbw_factor(Collective::all_reduce, 1) == 0);
  CHECK(busbw_factor(Collective::all_gather, 4) == Approx(0.75));
  CHECK(busbw_factor(Collective::reduce_scatter, 8) == Approx(0.875));
  CHECK(busbw_factor(Collective::alltoall, 2) == Approx(0.5));
  CHECK(busbw_factor(Collective::broadcast, 8) == 1);
  CHECK(busbw_factor(Collective::reduce, 8) == 1);
  CHECK(busbw_factor(Collective::sendrecv, 8) == 1);
  // gather_perf and scatter_perf: the total buffer, (n-1)/n (the root's link).
  CHECK(busbw_factor(Collective::gather, 4) == Approx(0.75));
  CHECK(busbw_factor(Collective::scatter, 8) == Approx(0.875));
  // hypercube_perf: its algbw already counts only the blocks that cross a link.
  CHECK(busbw_factor(Collective::hypercube, 8) == 1);
}

TEST_CASE("hypercube's algbw counts the blocks a rank receives, as hypercube_perf's does") {
  // hypercube_perf's algbw = per-rank bytes x (n - 1) / time: of a table size (all n blocks),
  // (n - 1) / n, which is all_gather's busbw on the same size and time.
  CHECK(algbw_share(Collective::hypercube, 8) == Approx(0.875));
  CHECK(algbw_share(Collective::hypercube, 1) == 0);
  for (Collective c : all_collectives()) {
    if (c != Collective::hypercube) CHECK(algbw_share(c, 8) == 1);
  }
  CHECK(algbw_gbps(1'048'576, 10.0) * algbw_share(Collective::hypercube, 4) ==
        Approx(algbw_gbps(1'048'576, 10.0) * busbw_factor(Collective::all_gather, 4)));
}

TEST_CASE("hypercube runs on a power-of-two rank count only, the rest on any") {
  for (int ranks : {1, 2, 4, 8, 64}) CHECK_FALSE(rank_count_refusal(Collective::hypercube, ranks));
  for (int ranks : {3, 6, 12}) {
    INFO(ranks);
    const auto why = rank_count_refusal(Collective::hypercube, ranks);
    REQUIRE(why);
    CHECK(*why == "hypercube needs a power-of-two rank count, not " + std::to_string(ranks));
  }
  for (Collective c : all_collectives()) {
    if (c != Collective::hypercube) CHECK_FALSE(rank_count_refusal(c, 3));
  }
}

TEST_CASE("algbw is bytes over time in GB/s") {
  CHECK(algbw_gbps(1'000'000, 1000.0) == Approx(1.0));
  CHECK(algbw_gbps(8589934592, 47535) == Approx(180.71).epsilon(1e-4));  // an nccl-tests row
  CHECK(algbw_gbps(8, 0) == 0);
}

TEST_CASE("buffer counts split the total buffer where nccl-tests does") {
  CHECK(buffer_counts(Collective::all_gather, 64, 4).send == 16);
  CHECK(buffer_counts(Collective::all_gather, 64, 4).recv == 64);
  CHECK(buffer_counts(Collective::reduce_scatter, 64, 4).send == 64);
  CHECK(buffer_counts(Collective::reduce_scatter, 64, 4).recv == 16);
  CHECK(buffer_counts(Collective::all_reduce, 64, 4).recv == 64);
  CHECK(buffer_counts(Collective::gather, 64, 4).send == 16);
  CHECK(buffer_counts(Collective::gather, 64, 4).recv == 64);
  CHECK(buffer_counts(Collective::scatter, 64, 4).send == 64);
  CHECK(buffer_counts(Collective::scatter, 64, 4).recv == 16);
  CHECK(buffer_counts(Collective::hypercube, 64, 4).send == 16);
  CHECK(buffer_counts(Collective::hypercube, 64, 4).recv == 64);
  CHECK(usable_count(Collective::hypercube, 10, 4) == 8);
  CHECK(usable_count(Collective::alltoall, 10, 4) == 8);
  CHECK(usable_count(Collective::scatter, 10, 4) == 8);
  CHECK(usable_count(Collective::all_reduce, 10, 4) == 10);
}

TEST_CASE("collective names parse, including nccl-tests program names") {
  CHECK(collective_from_string("all_reduce") == Collective::all_reduce);
  CHECK(collective_from_string("allreduce") == Collective::all_reduce);
  CHECK(collective_from_string("alltoall_perf") == Collective::alltoall);
  CHECK_THROWS_AS(collective_from_string("allreduce2"), perfgate::InputError);
  CHECK(collective_from_string("gather_perf") == Collective::gather);
  CHECK(collective_from_string("scatter") == Collective::scatter);
  CHECK(info(Collective::gather).has_root);
  CHECK_FALSE(info(Collective::scatter).reduces);
  CHECK(collective_from_string("hypercube_perf") == Collective::hypercube);
  CHECK_FALSE(info(Collective::hypercube).reduces);
  CHECK_FALSE(info(Collective::hypercube).has_root);
  CHECK(all_collectives().size() == 10);
  // In place, the input is the rank's block of the output for the all_gathers alone.
  CHECK(input_is_own_output_block(Collective::all_gather));
  CHECK(input_is_own_output_block(Collective::gather));
  CHECK(input_is_own_output_block(Collective::hypercube));
  CHECK_FALSE(input_is_own_output_block(Collective::scatter));
  CHECK_FALSE(input_is_own_output_block(Collective::alltoall));
}
