#include <catch2/catch.hpp>

#include "perfgate/core/error.hpp"
#include "perfgate/cuda/attention.hpp"
#include "perfgate/cuda/fused_ops.hpp"
#include "perfgate/cuda/gemm_lt.hpp"
#include "perfgate/cuda/host_data.hpp"

using namespace perfgate::cuda;

TEST_CASE("row operators need 128-bit vectors that fit one block's registers") {
  CHECK_NOTHROW(validate_row_shape({32768, 8192}, Precision::bf16));
  CHECK_NOTHROW(validate_row_shape({1, 32768}, Precision::bf16));
  CHECK_THROWS_WITH(validate_row_shape({4, 1001}, Precision::bf16),
                    Catch::Contains("multiple of 8"));
  CHECK_THROWS_WITH(validate_row_shape({4, 6}, Precision::f32), Catch::Contains("multiple of 4"));
  CHECK_THROWS_WITH(validate_row_shape({4, 65536}, Precision::bf16), Catch::Contains("exceeds"));
  CHECK_THROWS_AS(validate_row_shape({0, 8}, Precision::bf16), perfgate::InputError);
  // The limit is 4096 vectors per row in every storage type: 1024 threads x 4.
  CHECK_NOTHROW(validate_row_shape({1, 16384}, Precision::f32));
  CHECK_THROWS_WITH(validate_row_shape({1, 16388}, Precision::f32), Catch::Contains("exceeds"));
  CHECK_THROWS_WITH(validate_row_shape({1, 32776}, Precision::f16), Catch::Contains("exceeds"));
}

TEST_CASE("masked softmax refuses a grid it cannot launch, before any GPU work") {
  // One block per row of every matrix: rows x matrices must fit 2^31 - 1.
  CHECK_THROWS_WITH(masked_softmax_f32_in(Precision::bf16, nullptr, nullptr, RowShape{65536, 64},
                                          65536, true, 1.0f, nullptr),
                    Catch::Contains("grid dimension"));
  CHECK_THROWS_AS(masked_softmax_f32_in(Precision::f16, nullptr, nullptr, RowShape{0, 64}, 1, false,
                                        1.0f, nullptr),
                  perfgate::InputError);
  CHECK_THROWS_AS(masked_softmax_f32_in(Precision::f16, nullptr, nullptr, RowShape{64, 64}, 0,
                                        false, 1.0f, nullptr),
                  perfgate::InputError);
}

TEST_CASE("the flash kernel states what it supports") {
  std::string why;
  CHECK(flash_supported({1, 16, 16, 4096, 4096, 128, false}, Precision::bf16, &why));
  CHECK(flash_supported({1, 32, 8, 128, 128, 64, true}, Precision::f16, &why));
  CHECK_FALSE(flash_supported({1, 16, 16, 4096, 4096, 96, false}, Precision::bf16, &why));
  CHECK_THAT(why, Catch::Contains("head_dim"));
  CHECK_FALSE(flash_supported({1, 16, 16, 100, 100, 128, false}, Precision::bf16, &why));
  CHECK_THAT(why, Catch::Contains("multiples of 64"));
  CHECK(flash_supported({4, 16, 16, 100, 100, 128, false}, Precision::bf16, &why, true));  // packed
  CHECK_FALSE(flash_supported({1, 16, 16, 128, 64, 128, true}, Precision::bf16, &why));
  CHECK_THAT(why, Catch::Contains("more queries than keys"));
  // The 128-query tile: uniform batches whose query sequences are multiples of 128.
  CHECK(flash_wide_supported({1, 16, 16, 4096, 4096, 128, false}, Precision::bf16, &why));
  CHECK_FALSE(flash_wide_supported({1, 16, 16, 192, 192, 128, false}, Precision::bf16, &why));
  CHECK_THAT(why, Catch::Contains("multiples of 128"));
  CHECK_FALSE(flash_wide_supported({1, 16, 16, 256, 256, 96, false}, Precision::bf16, &why));
  CHECK_THAT(why, Catch::Contains("head_dim"));
  CHECK_FALSE(flash_supported({1, 16, 16, 128, 128, 128, false}, Precision::f32, &why));
  CHECK_THROWS_AS(flash_supported({1, 16, 5, 128, 128, 128, false}, Precision::bf16, &why),
                  perfgate::InputError);
}

TEST_CASE("fp8 GEMMs need compute capability 8.9 or newer") {
  std::string why;
  CHECK(gemm_supported(Precision::bf16, 8, 0, &why));
  CHECK_FALSE(gemm_supported(Precision::fp8, 8, 0, &why));
  CHECK_THAT(why, Catch::Contains("8.9"));
  CHECK(gemm_supported(Precision::fp8, 9, 0, &why));
  CHECK_FALSE(gemm_supported(Precision::bf16, 7, 5, &why));
}

TEST_CASE("host storage conversions round like the device") {
  const std::vector<float> values{1.0f, -0.3333333f, 1000.5f};
  for (Precision p : {Precision::f32, Precision::bf16, Precision::f16, Precision::fp8}) {
    const auto back = from_storage(to_storage(values, p), p);
    REQUIRE(back.size() == values.size());
    for (std::size_t i = 0; i < values.size(); ++i) CHECK(back[i] == round_to(p, values[i]));
  }
  CHECK(round_to(Precision::bf16, -0.3333333f) == -0.333984375f);
  const auto seeded = seeded_values(1000, 7, Precision::bf16);
  for (float v : seeded) CHECK(std::abs(v) >= 0.25f);
  CHECK(relative_error({1.0f, 2.0f}, {1.0, 2.0}) == 0.0);
  CHECK(relative_error({1.0f, NAN}, {1.0, 2.0}) == Approx(INFINITY));
}

TEST_CASE("packed variable-length batches are validated against the shape, naming the fault") {
  const AttentionShape s{3, 8, 2, 128, 128, 64, false};
  CHECK_NOTHROW(validate(PackedSequences{{0, 100, 228, 292}, {0, 100, 228, 292}}, s));
  CHECK_THROWS_WITH(validate(PackedSequences{{0, 100, 228}, {0, 100, 228, 292}}, s),
                    Catch::Contains("cu_q has 3 offsets; a batch of 3 needs 4"));
  CHECK_THROWS_WITH(validate(PackedSequences{{1, 100, 228, 292}, {0, 100, 228, 292}}, s),
                    Catch::Contains("cu_q must start at 0"));
  CHECK_THROWS_WITH(validate(PackedSequences{{0, 100, 229, 292}, {0, 100, 228, 292}}, s),
                    Catch::Contains("cu_q: sequence 1 has length 129, outside 1..128"));
  CHECK_THROWS_WITH(validate(PackedSequences{{0, 100, 228, 292}, {0, 100, 100, 292}}, s),
                    Catch::Contains("cu_kv: sequence 1 has length 0"));
  CHECK_THROWS_AS(validate(PackedSequences{{0, 100, 228, 292}, {0, 100, 228, 292}},
                           AttentionShape{3, 8, 3, 128, 128, 64, false}),
                  perfgate::InputError);
  CHECK(sequence_lengths({0, 100, 228, 292}) == std::vector<std::int32_t>{100, 128, 64});
  CHECK(element_offsets({0, 100, 228}, 2 * 64) == std::vector<std::int64_t>{0, 12800, 29184});
}

TEST_CASE("cuDNN attention declines a causal mask on packed sequences of unequal lengths") {
  // Checked before any cuDNN handle is made: no GPU is needed to be told.
  const AttentionShape s{2, 8, 8, 128, 128, 64, true};
  const PackedSequences unequal{{0, 100, 228}, {0, 120, 248}};
  CHECK_THROWS_AS(CudnnSdpa(s, Precision::bf16, CudnnSdpa::Direction::forward, unequal),
                  Unsupported);
  CHECK_THROWS_AS(CudnnSdpa(s, Precision::bf16, CudnnSdpa::Direction::forward,
                            PackedSequences{{0, 100}, {0, 100}}),
                  perfgate::InputError);
}

TEST_CASE("unfused attention declines a causal mask with more queries than keys") {
  // Checked before any device memory or cuBLAS handle: no GPU is needed to be told.
  const AttentionShape s{1, 4, 2, 256, 128, 64, true};
  CHECK_THROWS_AS(UnfusedAttention(s, Precision::bf16, nullptr, nullptr, nullptr, nullptr),
                  Unsupported);
  CHECK_THROWS_WITH(UnfusedAttention(s, Precision::f16, nullptr, nullptr, nullptr, nullptr),
                    Catch::Contains("more queries than keys"));
}
