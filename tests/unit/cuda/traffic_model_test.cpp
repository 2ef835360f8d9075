#include <catch2/catch.hpp>

#include "perfgate/core/error.hpp"
#include "perfgate/cuda/traffic_model.hpp"

using namespace perfgate::cuda;

TEST_CASE("GEMM model counts 2MNK and every operand once") {
  const Traffic t = gemm_traffic({8192, 8192, 8192}, Precision::bf16, false);
  CHECK(t.flops == Approx(2.0 * 8192.0 * 8192.0 * 8192.0));
  CHECK(t.bytes == Approx(3.0 * 8192.0 * 8192.0 * 2.0));
  const Traffic biased = gemm_traffic({4, 8, 16}, Precision::bf16, true);
  CHECK(biased.bytes == Approx((4 * 16 + 16 * 8 + 4 * 8 + 8) * 2.0));
  // fp8 reads one byte per element and writes bf16.
  const Traffic fp8 = gemm_traffic({4, 8, 16}, Precision::fp8, false);
  CHECK(fp8.bytes == Approx((4 * 16 + 16 * 8) * 1.0 + 4 * 8 * 2.0));
}

TEST_CASE("attention model: 4*B*H*Sq*Skv*D, causal keeps the lower triangle") {
  AttentionShape s{2, 16, 16, 4096, 4096, 128, false};
  const Traffic full = attention_forward_traffic(s, Precision::bf16);
  CHECK(full.flops == Approx(4.0 * 2 * 16 * 4096.0 * 4096.0 * 128));
  CHECK(full.bytes == Approx(4.0 * 2 * 4096 * 16 * 128 * 2));
  s.causal = true;
  CHECK(attention_score_count(s) == Approx(4096.0 * 4097.0 / 2));
  CHECK(attention_backward_traffic(s, Precision::bf16).flops ==
        Approx(2.5 * attention_forward_traffic(s, Precision::bf16).flops));
  // Fewer queries than keys: each query sees the keys up to its aligned position.
  AttentionShape tail{1, 1, 1, 2, 5, 1, true};
  CHECK(attention_score_count(tail) == Approx(4.0 + 5.0));
}

TEST_CASE("GQA: heads must be a multiple of kv_heads, K/V bytes follow kv_heads") {
  AttentionShape s{1, 32, 8, 1024, 1024, 128, false};
  const Traffic t = attention_forward_traffic(s, Precision::bf16);
  CHECK(t.bytes == Approx((2.0 * 32 + 2.0 * 8) * 1024 * 128 * 2));
  s.kv_heads = 5;
  CHECK_THROWS_AS(validate(s), perfgate::InputError);
  s.kv_heads = 0;
  CHECK_THROWS_WITH(validate(s), Catch::Contains("kv_heads"));
}

TEST_CASE("memory-bound models count the minimum traffic") {
  const RowShape s{32768, 8192};
  const double n = 32768.0 * 8192.0;
  CHECK(rmsnorm_residual_traffic(s, Precision::bf16).bytes == Approx((4 * n + 8192) * 2));
  CHECK(layernorm_residual_traffic(s, Precision::f32).bytes == Approx((4 * n + 2 * 8192) * 4));
  CHECK(softmax_traffic(s, Precision::bf16).bytes == Approx(2 * n * 2));
  CHECK(bias_gelu_traffic(s, Precision::f16).bytes == Approx((2 * n + 8192) * 2));
  CHECK(swiglu_traffic(s, Precision::bf16).bytes == Approx(3 * n * 2));
  // x in, y out, and the cos/sin table (a float pair per position and pair) once.
  CHECK(rope_traffic({1024, 128}, Precision::bf16, 256).bytes ==
        Approx(2.0 * 1024 * 128 * 2 + 256.0 * 64 * 2 * 4));
  CHECK_THROWS_WITH(rope_traffic({1024, 128}, Precision::bf16, 0), Catch::Contains("positions"));
  CHECK(adamw_traffic(1000).bytes == Approx(7.0 * 4 * 1000));
  CHECK_THROWS_AS(rope_traffic({4, 127}, Precision::bf16, 1), perfgate::InputError);
  CHECK_THROWS_WITH(softmax_traffic({0, 8}, Precision::bf16), Catch::Contains("rows"));
}

TEST_CASE("fractions of a ceiling, an unmeasured ceiling gives 0") {
  CHECK(fraction_of(450.0, 500.0) == Approx(0.9));
  CHECK(fraction_of(450.0, 0.0) == 0.0);
}

TEST_CASE("precision names round-trip and unknown names are input errors") {
  for (Precision p : {Precision::f32, Precision::bf16, Precision::f16, Precision::fp8})
    CHECK(precision_from_string(to_string(p)) == p);
  CHECK(element_bytes(Precision::fp8) == 1);
  CHECK_THROWS_WITH(precision_from_string("int4"), Catch::Contains("int4"));
}
