#pragma once
// The CUDA step proxy's network recomputed on the host in double, for small shapes: the weight
// gradients a GPU step should produce, to catch a wrong transpose, offset or missing term in
// GpuTransformer. Host-only (tested against finite differences without a GPU); the model check
// compares the GPU's local gradients with it.
#include <cstdint>
#include <string>
#include <vector>

#include "../transformer.hpp"

namespace perfgate::step_proxy::gpu {

// What GpuTransformer starts from, widened from bf16: weights (layer-major: Wq, Wk, Wv, Wo
// [h,h], W1 [4h,h], W2 [h,4h], each [out, in]), the first layer's input x0 [tokens, h] and the
// loss gradient dY [tokens, h] the backward starts from.
struct ModelInputs {
  std::vector<double> weights, x0, loss_grad;
};

// Σ loss_grad ⊙ output: the scalar whose weight gradients the backward computes.
double reference_loss(const Shape& s, const ModelInputs& in);

// Every weight gradient, laid out as GpuTransformer::grads. With `round_storage` every tensor
// the GPU keeps in bf16 (activations, their gradients) is rounded to bf16 where the GPU stores
// it, so what is left between the two is accumulation order and cuDNN's internal precision.
std::vector<double> reference_gradients(const Shape& s, const ModelInputs& in, bool round_storage);

// bf16 bits (the GPU's storage) to double, and a double rounded to the nearest bf16.
double bf16_to_double(std::uint16_t bits);
double round_to_bf16(double x);

// Names the 12h² gradients of a layer: "layer 1 W1".
std::string weight_name(const Shape& s, std::size_t index);

// Each weight matrix's largest |gpu − reference| divided by the reference's largest |value|:
// the worst of them, and which matrix it was.
struct GradientComparison {
  double worst_error = 0;
  std::string worst_matrix;
};
GradientComparison compare_gradients(const Shape& s, const std::vector<double>& gpu,
                                     const std::vector<double>& reference);

}  // namespace perfgate::step_proxy::gpu
