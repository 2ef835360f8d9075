// Every CPU variant of every family agrees with its double-precision reference on random
// shapes, odd sizes included (what the harness checks before timing, here over more shapes).
#include <catch2/catch.hpp>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "perfgate/core/attention_scores.hpp"
#include "perfgate/microbench/check.hpp"
#include "perfgate/microbench/families/attention.hpp"
#include "perfgate/microbench/kernels/attention.hpp"
#include "perfgate/microbench/registry.hpp"

using namespace perfgate::microbench;
using perfgate::Params;

namespace {

// Odd shapes per family: sizes that are not multiples of any block or vector width.
std::vector<Params> odd_shapes(const std::string& family, Rng& rng) {
  auto n = [&](std::int64_t lo, std::int64_t hi) {
    return std::to_string(rng.integer(lo, hi) | 1);
  };
  if (family == "attention") {
    std::vector<Params> out;
    for (const char* causal : {"0", "1"})
      for (const char* varlen : {"0", "1"})
        for (const char* dtype : {"f32", "bf16", "f16"}) {
          const auto sq = n(3, 41);
          out.push_back(
              {{"b", n(1, 3)},
               {"h", "6"},
               {"hkv", varlen[0] == '1' ? "2" : "3"},
               {"sq", sq},
               {"sk",
                varlen[0] == '1' ? sq : std::to_string(std::stoi(sq) + 2 * rng.integer(0, 40))},
               {"d", n(5, 33)},
               {"causal", causal},
               {"varlen", varlen},
               {"dtype", dtype}});
        }
    return out;
  }
  if (family == "attention_backward") {
    std::vector<Params> out;
    for (const char* causal : {"0", "1"})
      for (const char* dtype : {"f32", "bf16"})
        out.push_back({{"b", n(1, 3)},
                       {"h", "4"},
                       {"hkv", "2"},
                       {"sq", "9"},
                       {"sk", n(9, 23)},
                       {"d", n(3, 17)},
                       {"causal", causal},
                       {"dtype", dtype}});
    return out;
  }
  if (family == "gemm") {
    std::vector<Params> out;
    for (const char* proj : {"qkv", "out", "up", "down"})
      for (const char* epi : {"none", "bias_gelu"})
        out.push_back({{"model", "tiny"},
                       {"proj", proj},
                       {"tokens", n(1, 45)},
                       {"epilogue", epi},
                       {"dtype", "f32"}});
    out.push_back({{"model", "tiny"},
                   {"proj", "up"},
                   {"tokens", "7"},
                   {"epilogue", "bias_gelu"},
                   {"dtype", "bf16"}});
    return out;
  }
  if (family == "rope")
    return {{{"tokens", n(1, 40)}, {"heads", n(1, 5)}, {"d", "18"}, {"seq", n(3, 17)}}};
  if (family == "adamw") return {{{"tensors", n(1, 7)}, {"size", n(1, 999)}}};
  if (family == "cross_entropy") return {{{"rows", n(1, 17)}, {"vocab", n(3, 3001)}}};
  if (family == "test_fault") return {};
  std::vector<Params> out;  // the row-wise fused operators
  for (const char* dtype : {"f32", "bf16"})
    out.push_back({{"rows", n(1, 33)}, {"cols", n(3, 777)}, {"dtype", dtype}});
  return out;
}

}  // namespace

TEST_CASE("every CPU variant of every family matches the reference on odd shapes") {
  Rng shapes(2024);
  std::size_t checked = 0;
  for (const Family* family : Registry::instance().families()) {
    for (const auto& params : odd_shapes(family->name(), shapes)) {
      for (const auto& impl : family->implementations()) {
        if (impl.backend != "cpu") continue;
        const CaseParams p(params);
        Rng rng(7);
        auto problem = family->make_problem(p, rng);
        auto instance = impl.make(*problem, p);
        REQUIRE(instance);
        instance->poison();
        instance->run();
        const auto check = check_output(instance->output(), problem->reference(),
                                        relative_error_bound(problem->output_dtype()));
        const perfgate::SeriesKey key{family->name(), params, "time"};
        INFO(impl.variant << " " << key.name());
        INFO(check.message);
        CHECK(check.passed);
        // Rerunning (as the timed loop does) gives the same result.
        instance->run();
        CHECK(check_output(instance->output(), problem->reference(),
                           relative_error_bound(problem->output_dtype()))
                  .passed);
        ++checked;
      }
    }
  }
  CHECK(checked >= 40);
}

TEST_CASE("every family declares axes, a workload model and at least two CPU variants") {
  for (const char* name : {"attention", "gemm", "rmsnorm", "layernorm", "bias_gelu", "swiglu",
                           "softmax", "rope", "adamw", "cross_entropy"}) {
    INFO(name);
    const Family* f = Registry::instance().find(name);
    REQUIRE(f);
    CHECK(!f->axes().empty());
    std::size_t cpu = 0;
    for (const auto& i : f->implementations()) cpu += i.backend == "cpu";
    CHECK(cpu >= 2);
  }
}

TEST_CASE("attention FLOPs count the scores the causal mask keeps") {
  const Family* f = Registry::instance().find("attention");
  REQUIRE(f);
  Params p{{"b", "2"},  {"h", "8"},      {"hkv", "2"},    {"sq", "128"},    {"sk", "256"},
           {"d", "64"}, {"causal", "0"}, {"varlen", "0"}, {"dtype", "bf16"}};
  CHECK(f->model(CaseParams(p)).flops == 4.0 * 2 * 8 * 128 * 256 * 64);
  // Sq < Sk, bottom-right aligned: row i sees i + 1 + 128 keys, 128·256 − 128·127/2 = 24640 in
  // all (not half of 128·256 = 16384).
  p["causal"] = "1";
  CHECK(f->model(CaseParams(p)).flops == 4.0 * 2 * 8 * 64 * 24640);
  // bf16: Q and O at 2 bytes over 8 heads, K and V over 2 KV heads.
  CHECK(f->model(CaseParams(p)).bytes == Approx((2.0 * 256 * 8 * 64 + 2.0 * 512 * 2 * 64) * 2));
  // Sq = Sk: the triangle with its diagonal, S(S+1)/2, within (S+1)/S of FlashAttention's S²/2.
  p["sk"] = "128";
  CHECK(f->model(CaseParams(p)).flops == 4.0 * 2 * 8 * 64 * (128 * 129 / 2));
  CHECK(f->model(CaseParams(p)).flops == Approx(2.0 * 2 * 8 * 128 * 128 * 64).epsilon(1.0 / 128));
  // Variable lengths: each sequence's own triangle.
  p["varlen"] = "1";
  const auto [cu_q, cu_k] = attention_offsets(CaseParams(p));
  double scores = 0;
  for (std::size_t i = 0; i + 1 < cu_q.size(); ++i) {
    const double len = static_cast<double>(cu_q[i + 1] - cu_q[i]);
    scores += len * (len + 1) / 2;
  }
  CHECK(f->model(CaseParams(p)).flops == 4.0 * 8 * 64 * scores);
  // The backward counts 2.5 times the forward's kept scores.
  const Family* bwd = Registry::instance().find("attention_backward");
  REQUIRE(bwd);
  Params b{{"b", "2"},    {"h", "8"},  {"hkv", "2"},    {"sq", "128"},
           {"sk", "256"}, {"d", "64"}, {"causal", "1"}, {"dtype", "bf16"}};
  CHECK(bwd->model(CaseParams(b)).flops == 2.5 * 4.0 * 2 * 8 * 64 * 24640);
}

TEST_CASE("the causal mask is bottom-right aligned, and empty for the first Sq - Sk rows") {
  using kernels::visible_keys;
  using perfgate::kept_scores;
  CHECK(visible_keys(false, 0, 5, 3) == 3);
  CHECK(visible_keys(true, 0, 3, 5) == 3);  // Sq < Sk: the first row sees Sk − Sq + 1 keys
  CHECK(visible_keys(true, 2, 3, 5) == 5);
  CHECK(visible_keys(true, 0, 5, 3) == 0);  // Sq > Sk: no key for rows 0 and 1
  CHECK(visible_keys(true, 1, 5, 3) == 0);
  CHECK(visible_keys(true, 2, 5, 3) == 1);
  CHECK(visible_keys(true, 4, 5, 3) == 3);
  for (std::size_t lq = 0; lq < 12; ++lq)
    for (std::size_t lk = 0; lk < 12; ++lk)
      for (bool causal : {false, true}) {
        std::size_t sum = 0;
        for (std::size_t i = 0; i < lq; ++i) {
          const std::size_t v = visible_keys(causal, i, lq, lk);
          CHECK(v <= lk);
          sum += v;
        }
        INFO("lq " << lq << " lk " << lk << " causal " << causal);
        CHECK(kept_scores(causal, lq, lk) == sum);
      }
}

TEST_CASE("a storage dtype rounds to its precision") {
  CHECK(round_to(DType::bf16, 1.0f + 1.0f / 256) == 1.0f);  // below half an ulp of bf16
  CHECK(round_to(DType::bf16, 1.0f + 3.0f / 256) == 1.0f + 1.0f / 64);
  CHECK(round_to(DType::f16, 1.0f + 1.0f / 4096) == 1.0f);
  CHECK(round_to(DType::f32, 1.0f + 1.0f / 4096) == 1.0f + 1.0f / 4096);
}

TEST_CASE("row-wise operators count their operations and tensors per element") {
  // {family, flops per element, [rows, cols] tensors moved}: reported TFLOP/s and GB/s come
  // from these counts, and a count that moved would make stored baselines incomparable.
  const std::vector<std::tuple<std::string, double, double>> models{{"bias_gelu", 9, 2},
                                                                    {"swiglu", 5, 3},
                                                                    {"rmsnorm", 5, 4},
                                                                    {"layernorm", 8, 4},
                                                                    {"softmax", 4, 2}};
  for (const auto& [name, flops, tensors] : models) {
    CAPTURE(name);
    const Family* f = Registry::instance().find(name);
    REQUIRE(f);
    for (const auto& [dtype, bytes] : {std::pair{"bf16", 2.0}, std::pair{"f32", 4.0}}) {
      const Params p{{"rows", "96"}, {"cols", "40"}, {"dtype", dtype}};
      CHECK(f->model(CaseParams(p)).flops == flops * 96 * 40);
      CHECK(f->model(CaseParams(p)).bytes == tensors * 96 * 40 * bytes);
    }
  }
}
