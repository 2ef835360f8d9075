#include <cmath>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "cuda/host_reference.hpp"

using namespace perfgate::step_proxy;
using namespace perfgate::step_proxy::gpu;

namespace {

// Two layers small enough for finite differences: 8 tokens (2 sequences of 4), hidden 16, 2 heads.
Shape tiny() {
  Shape s;
  s.layers = 2;
  s.hidden = 16;
  s.heads = 2;
  s.seq = 4;
  s.batch = 2;
  return s;
}

ModelInputs random_inputs(const Shape& s, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  ModelInputs in;
  const double w_scale = 1.0 / std::sqrt(double(s.hidden));
  in.weights.resize(std::size_t(s.layers) * std::size_t(s.params_per_layer()));
  for (double& w : in.weights) w = w_scale * u(rng);
  const std::size_t th = std::size_t(s.tokens()) * std::size_t(s.hidden);
  for (auto* v : {&in.x0, &in.loss_grad}) {
    v->resize(th);
    for (double& x : *v) x = u(rng);
  }
  return in;
}

}  // namespace

TEST_CASE("the host reference's gradients are the loss's derivatives", "[step_proxy]") {
  const Shape s = tiny();
  ModelInputs in = random_inputs(s, 11);
  const std::vector<double> g = reference_gradients(s, in, false);
  REQUIRE(g.size() == in.weights.size());
  // Central differences at indices spread over all twelve h×h blocks of both layers.
  const std::size_t per_layer = std::size_t(s.params_per_layer());
  int checked = 0;
  for (std::size_t i = 5; i < g.size(); i += 97) {
    INFO(weight_name(s, i) << " element " << i % per_layer);
    const double eps = 1e-5, saved = in.weights[i];
    in.weights[i] = saved + eps;
    const double up = reference_loss(s, in);
    in.weights[i] = saved - eps;
    const double down = reference_loss(s, in);
    in.weights[i] = saved;
    const double numeric = (up - down) / (2 * eps);
    CHECK(g[i] == Approx(numeric).margin(1e-7).epsilon(1e-5));
    ++checked;
  }
  CHECK(checked >= 60);
}

TEST_CASE("bf16 storage moves the gradients by a few bf16 steps at most", "[step_proxy]") {
  const Shape s = tiny();
  const ModelInputs in = random_inputs(s, 5);
  const std::vector<double> exact = reference_gradients(s, in, false);
  const std::vector<double> stored = reference_gradients(s, in, true);
  const GradientComparison c = compare_gradients(s, stored, exact);
  CHECK(c.worst_error > 0);
  CHECK(c.worst_error < 0x1p-6);  // a quarter of the model check's bound (2^-4)
}

TEST_CASE("compare_gradients names the matrix a wrong gradient lands in", "[step_proxy]") {
  const Shape s = tiny();
  const std::vector<double> reference = reference_gradients(s, random_inputs(s, 3), false);
  CHECK(compare_gradients(s, reference, reference).worst_error == 0);
  // Layer 1's Wq and Wk gradients exchanged: errors of the order of the gradients themselves.
  std::vector<double> swapped = reference;
  const std::size_t h2 = std::size_t(s.hidden) * std::size_t(s.hidden),
                    base = std::size_t(s.params_per_layer());
  for (std::size_t i = 0; i < h2; ++i) std::swap(swapped[base + i], swapped[base + h2 + i]);
  const GradientComparison c = compare_gradients(s, swapped, reference);
  CHECK(c.worst_error > 0.2);
  CHECK((c.worst_matrix == "layer 1 Wq" || c.worst_matrix == "layer 1 Wk"));
  // A NaN anywhere fails.
  std::vector<double> nan = reference;
  nan[base + 8 * h2 + 3] = std::nan("");
  const GradientComparison n = compare_gradients(s, nan, reference);
  CHECK(std::isinf(n.worst_error));
  CHECK(n.worst_matrix == "layer 1 W2");
}

TEST_CASE("bf16 rounding is to nearest, ties to even", "[step_proxy]") {
  // bf16 keeps 8 significant bits: next to 1.0 its steps are 2^-7.
  CHECK(round_to_bf16(1.0 + 0x1p-8) == 1.0);               // a tie: down to the even 1.0
  CHECK(round_to_bf16(1.0 + 3 * 0x1p-8) == 1.0 + 0x1p-6);  // a tie: up to the even neighbour
  CHECK(round_to_bf16(1.0 + 0x1p-8 + 0x1p-12) == 1.0 + 0x1p-7);
  CHECK(round_to_bf16(1.0 + 0x1p-9) == 1.0);
  CHECK(bf16_to_double(0x3F80) == 1.0);
  CHECK(bf16_to_double(0xC040) == -3.0);
}
